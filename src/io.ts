// What a command runs with: the working folder, the environment and the two outputs. The program's
// edge (src/cli.ts's main, the launcher) reads them from the process once and hands them down; a
// command and the code it calls read them from here, never from `process`, so a test (or anything
// else) runs a command as a function with a folder, an environment and collectors of its own.

/** Where a command writes: process.stdout and process.stderr are ones, a test's collector another. */
export interface Output {
  /** false when the writer should wait for 'drain' before the next write (a collector never asks). */
  write(chunk: string | Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
  /** A terminal: colour and a closing newline are for people. */
  readonly isTTY?: boolean;
}

export interface Io {
  /** The folder the command runs from: relative paths and the repository are found from it. */
  cwd: string;
  /** The whole environment: memlint's variables, and what git and the agent step run with. */
  env: NodeJS.ProcessEnv;
  stdout: Output;
  stderr: Output;
}

/** Where a caught fault's stack goes: the run's stderr under MEMLINT_DEBUG=1, else nowhere. */
export function debugWriter(io: Pick<Io, 'env' | 'stderr'>): ((text: string) => void) | undefined {
  return io.env.MEMLINT_DEBUG === '1' ? (text) => void io.stderr.write(text) : undefined;
}

/**
 * This process's folder, environment and streams, each read when first used, as a command that
 * read the process itself would: Node creates process.stdout and process.stderr on first use,
 * which a command that prints nothing (the merge driver) never pays for, and `--version` or
 * `--help` answer in a folder that was removed.
 */
export function processIo(): Io {
  return {
    get cwd() {
      return process.cwd();
    },
    env: process.env,
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
  };
}
