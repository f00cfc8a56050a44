// A failing file system layer for fault-injection tests, preloaded with
// `node --import ./test/support/fault-fs.mjs bin/tw16.js …`. It wraps node:fs's synchronous
// open, write, writeFile and rename (tw16 writes through these) and, at the `nth` call whose path
// contains `path`, does `action` *before* the call: `SIGKILL` or `SIGTERM` (sent to this
// process), or an OS error code such as `ENOSPC` (thrown as Node would throw it).
// Configured by TW16_FAULT='{"op":"write","path":"hands.partial.arrows","nth":40,"action":"SIGKILL"}'.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const fault = JSON.parse(process.env.TW16_FAULT ?? 'null');
if (fault) {
  const paths = new Map(); // fd → path
  let seen = 0;
  const hit = (op, path) => {
    if (op !== fault.op || typeof path !== 'string' || !path.includes(fault.path)) return;
    if (++seen !== fault.nth) return;
    if (fault.action === 'SIGKILL' || fault.action === 'SIGTERM') {
      process.kill(process.pid, fault.action);
      return;
    }
    const err = new Error(`${fault.action}: injected failure, ${op} '${path}'`);
    Object.assign(err, { code: fault.action, errno: -28, syscall: op, path });
    throw err;
  };
  const pathOf = (fdOrPath) => (typeof fdOrPath === 'number' ? paths.get(fdOrPath) : String(fdOrPath));
  const { openSync, writeSync, writeFileSync, renameSync, closeSync } = fs;
  fs.openSync = (path, ...rest) => {
    hit('open', String(path));
    const fd = openSync(path, ...rest);
    paths.set(fd, String(path));
    return fd;
  };
  fs.closeSync = (fd) => {
    paths.delete(fd);
    return closeSync(fd);
  };
  fs.writeSync = (fd, ...rest) => {
    hit('write', pathOf(fd));
    return writeSync(fd, ...rest);
  };
  fs.writeFileSync = (file, ...rest) => {
    hit('write', pathOf(file));
    return writeFileSync(file, ...rest);
  };
  fs.renameSync = (from, to) => {
    hit('rename', String(to));
    return renameSync(from, to);
  };
  syncBuiltinESMExports();
}
