// The lock a results store's writer holds (`ResultsStore.open()`): a file beside the store that holds
// the writer's process id, locked with the operating system's file lock. The system drops the lock
// when the process ends however it ends, so a file left by a killed writer is taken over, never
// waited on; the id is only what the message names. Private to eval/.

const encoder = new TextEncoder();

/** A results store's lock, held by this process until released. */
export class StoreLock implements Disposable {
  readonly #path: string;
  #file: Deno.FsFile | null;

  private constructor(path: string, file: Deno.FsFile) {
    this.#path = path;
    this.#file = file;
  }

  /**
   * Takes the lock of the store at `storePath` (the file `<storePath>.lock`), or says who holds it:
   * the holder's process id, `null` when it has not written it yet. File-system errors are thrown.
   */
  static take(storePath: string): StoreLock | { holder: number | null } {
    const path = `${storePath}.lock`;
    for (let attempt = 0;; attempt++) {
      const file = Deno.openSync(path, { read: true, write: true, create: true });
      try {
        if (!file.tryLockSync(true)) {
          file.close();
          return { holder: holderOf(path) };
        }
        // The holder removes the file as it lets go: a lock on a file no longer at the path holds nothing.
        if (attempt < 3 && !samePath(path, file)) {
          file.close();
          continue;
        }
        file.truncateSync(0);
        file.writeSync(encoder.encode(`${Deno.pid}\n`));
        return new StoreLock(path, file);
      } catch (err) {
        closeQuietly(file);
        throw err;
      }
    }
  }

  /** Lets go of the lock and removes its file; releasing twice does nothing. */
  release(): void {
    const file = this.#file;
    if (file === null) return;
    this.#file = null;
    try {
      if (samePath(this.#path, file)) Deno.removeSync(this.#path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    } finally {
      file.close();
    }
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch {
    // Already closed.
  }
}

// Whether the open file is still the one at `path` (not removed or replaced since it was opened).
function samePath(path: string, file: Deno.FsFile): boolean {
  try {
    return Deno.statSync(path).ino === file.statSync().ino;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

// The process id a lock file holds, or `null` when it holds none (yet).
function holderOf(path: string): number | null {
  try {
    const pid = Number(Deno.readTextFileSync(path).trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
