import type { CommandModule } from 'yargs';

/**
 * What a command's module exports: its options (builder) and what it does (handler). Its name,
 * arguments and help line are in commands.ts, so that `tw16 --help` and a run of one command
 * load no other command's module.
 */
export type CommandBody<A> = Required<Pick<CommandModule<object, A>, 'builder' | 'handler'>>;
