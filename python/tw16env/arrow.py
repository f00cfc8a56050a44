"""Read tw16's Arrow IPC files (hands.arrow, wins.arrow, decisions.arrow) into numpy arrays,
with numpy and the standard library only — for machines without pyarrow.

Written from the Arrow columnar format's specification (the IPC file format: magic, an
encapsulated message stream, a footer listing the record batches; FlatBuffers metadata). It
reads what tw16 writes: integers, floats, booleans, UTF-8 strings, lists and fixed-size lists,
uncompressed, without dictionaries. Anything else is refused with a ValueError naming it.

    t = read_arrow("results/mine/decisions.arrow")
    t["obs"]          # (rows, 615) uint8
    t["legal"][i]     # the legal action ids of row i
    t.metadata["tw16.obs"]
"""
import mmap
import struct

import numpy as np

_MAGIC = b"ARROW1"
_INT, _FLOAT, _BINARY, _UTF8, _BOOL, _LIST, _STRUCT, _FIXED_LIST = 2, 3, 4, 5, 6, 12, 13, 16


class _Flat:
    """A FlatBuffers table at ``pos`` of ``buf``."""

    def __init__(self, buf, pos):
        self.buf, self.pos = buf, pos
        self.vt = pos - struct.unpack_from("<i", buf, pos)[0]
        self.vtlen = struct.unpack_from("<H", buf, self.vt)[0]

    def _field(self, i):
        o = 4 + 2 * i
        return struct.unpack_from("<H", self.buf, self.vt + o)[0] if o < self.vtlen else 0

    def scalar(self, i, fmt, default=0):
        o = self._field(i)
        return struct.unpack_from(fmt, self.buf, self.pos + o)[0] if o else default

    def table(self, i):
        o = self._field(i)
        if not o:
            return None
        p = self.pos + o
        return _Flat(self.buf, p + struct.unpack_from("<I", self.buf, p)[0])

    def vector(self, i):
        """(start of the elements, count), or (0, 0) when absent."""
        o = self._field(i)
        if not o:
            return 0, 0
        p = self.pos + o
        start = p + struct.unpack_from("<I", self.buf, p)[0]
        return start + 4, struct.unpack_from("<I", self.buf, start)[0]

    def string(self, i):
        start, n = self.vector(i)
        return bytes(self.buf[start:start + n]).decode()

    def tables(self, i):
        start, n = self.vector(i)
        out = []
        for k in range(n):
            e = start + 4 * k
            out.append(_Flat(self.buf, e + struct.unpack_from("<I", self.buf, e)[0]))
        return out


def _root(buf, at):
    return _Flat(buf, at + struct.unpack_from("<I", buf, at)[0])


class Field:
    """A column: its name, type and (lists) its child."""

    def __init__(self, flat):
        self.name = flat.string(0)
        self.type_id = flat.scalar(2, "<B")
        t = flat.table(3)
        self.children = [Field(c) for c in flat.tables(5)]
        if self.type_id == _INT:
            bits, signed = t.scalar(0, "<i"), t.scalar(1, "<?")
            self.dtype = np.dtype("%s%d" % ("<i" if signed else "<u", bits // 8))
        elif self.type_id == _FLOAT:
            self.dtype = np.dtype(("<f2", "<f4", "<f8")[t.scalar(0, "<h")])
        elif self.type_id == _FIXED_LIST:
            self.size = t.scalar(0, "<i")
        elif self.type_id not in (_UTF8, _BINARY, _BOOL, _LIST, _STRUCT):
            raise ValueError("column %r: Arrow type %d is not one tw16 writes" % (self.name, self.type_id))


class ListColumn:
    """A list column: row i holds ``values[offsets[i]:offsets[i + 1]]``."""

    def __init__(self, offsets, values):
        self.offsets, self.values = offsets, values

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, i):
        return self.values[self.offsets[i]:self.offsets[i + 1]]

    def lengths(self):
        return np.diff(self.offsets)


class ArrowTable:
    """Columns by name (numpy arrays; utf8 as object arrays of str; lists as ListColumn; fixed-size
    lists as 2-D arrays), the schema metadata, and the row count."""

    def __init__(self, columns, metadata, num_rows):
        self.columns, self.metadata, self.num_rows = columns, metadata, num_rows

    def __getitem__(self, name):
        return self.columns[name]

    def __len__(self):
        return self.num_rows

    @property
    def column_names(self):
        return list(self.columns)


def _read_column(field, nodes, buffers, body, ni, bi, rows):
    """One column of a record batch: (value, next node index, next buffer index)."""
    length = nodes[ni][0]
    ni += 1
    bi += 1  # validity: tw16 writes no nulls

    def buf(k):
        off, n = buffers[k]
        return body[off:off + n]

    t = field.type_id
    if t in (_INT, _FLOAT):
        out = np.frombuffer(buf(bi), dtype=field.dtype, count=length).copy()
        return out, ni, bi + 1
    if t == _BOOL:
        bits = np.unpackbits(np.frombuffer(buf(bi), dtype=np.uint8), bitorder="little")[:length].astype(bool)
        return bits, ni, bi + 1
    if t in (_UTF8, _BINARY):
        offsets = np.frombuffer(buf(bi), dtype="<i4", count=length + 1)
        data = bytes(buf(bi + 1))
        vals = [data[offsets[k]:offsets[k + 1]] for k in range(length)]
        if t == _UTF8:
            vals = [v.decode() for v in vals]
        return np.array(vals, dtype=object), ni, bi + 2
    if t == _LIST:
        offsets = np.frombuffer(buf(bi), dtype="<i4", count=length + 1).astype(np.int64)
        child, ni, bi = _read_column(field.children[0], nodes, buffers, body, ni, bi + 1, rows)
        return ListColumn(offsets - offsets[0], child[offsets[0]:offsets[-1]]), ni, bi
    if t == _FIXED_LIST:
        child, ni, bi = _read_column(field.children[0], nodes, buffers, body, ni, bi, rows)
        return child.reshape(length, field.size), ni, bi
    raise ValueError("column %r: Arrow type %d is not one tw16 writes" % (field.name, t))


def _concat(parts):
    if isinstance(parts[0], ListColumn):
        offsets, values, base = [np.zeros(1, dtype=np.int64)], [], 0
        for p in parts:
            offsets.append(p.offsets[1:] + base)
            values.append(p.values)
            base += len(p.values)
        return ListColumn(np.concatenate(offsets), np.concatenate(values))
    return np.concatenate(parts)


def read_arrow(path):
    """Every column of the Arrow IPC file at ``path`` (an ArrowTable)."""
    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    try:
        buf = memoryview(mm)
        if len(buf) < 18 or bytes(buf[:6]) != _MAGIC or bytes(buf[-6:]) != _MAGIC:
            raise ValueError("%s: not an Arrow IPC file (no ARROW1 magic)" % path)
        footer_len = struct.unpack_from("<i", buf, len(buf) - 10)[0]
        footer = _root(buf, len(buf) - 10 - footer_len)
        schema = footer.table(1)
        fields = [Field(t) for t in schema.tables(1)]
        metadata = {kv.string(0): kv.string(1) for kv in schema.tables(2)}
        start, nblocks = footer.vector(3)
        parts = {fl.name: [] for fl in fields}
        rows = 0
        for k in range(nblocks):
            offset, meta_len, body_len = struct.unpack_from("<qi4xq", buf, start + 24 * k)
            at = offset + 8 if struct.unpack_from("<I", buf, offset)[0] == 0xFFFFFFFF else offset + 4
            message = _root(buf, at)
            if message.scalar(1, "<B") != 3:
                raise ValueError("%s: block %d is not a record batch" % (path, k))
            batch = message.table(2)
            if batch.table(3) is not None:
                raise ValueError("%s: compressed record batches are not supported" % path)
            n = batch.scalar(0, "<q")
            ns, nn = batch.vector(1)
            nodes = [struct.unpack_from("<qq", buf, ns + 16 * i) for i in range(nn)]
            bs, nb = batch.vector(2)
            buffers = [struct.unpack_from("<qq", buf, bs + 16 * i) for i in range(nb)]
            body = buf[offset + meta_len:offset + meta_len + body_len]
            ni = bi = 0
            for fl in fields:
                col, ni, bi = _read_column(fl, nodes, buffers, body, ni, bi, n)
                parts[fl.name].append(col)
            rows += n
            del body
        columns = {}
        for fl in fields:
            if parts[fl.name]:
                columns[fl.name] = _concat(parts[fl.name])
        del buf
        return ArrowTable(columns, metadata, rows)
    finally:
        try:
            mm.close()
        except BufferError:
            pass
