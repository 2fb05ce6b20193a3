/** What a Node or SQLite error carries that tells a data-folder or port problem apart. */
interface SystemError {
  code?: unknown;
  syscall?: unknown;
}

const FOLDER_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "EEXIST", "ENOSPC"]);

/** A data folder the sandbox cannot create, open or write: the message names the path and the fix. */
export function dataFolderError(error: unknown, path: string): Error {
  const { code } = (error ?? {}) as SystemError;
  const text = error instanceof Error ? error.message : String(error);
  const folderProblem =
    typeof code === "string" && (FOLDER_CODES.has(code) || code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_READONLY"));
  if (!folderProblem) return error instanceof Error ? error : new Error(text);
  return new Error(
    `cannot use the data folder ${path} (${text}); choose a folder you can write with --data DIR or CLOUDCOST_SANDBOX_DATA`,
    { cause: error },
  );
}

/** A port or interface `serve` cannot listen on: the message names host and port and the fix. */
export function listenError(error: unknown, host: string, port: number): Error | undefined {
  const { code, syscall } = (error ?? {}) as SystemError;
  if (syscall !== "listen" && code !== "EADDRINUSE" && code !== "EADDRNOTAVAIL") return undefined;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE")
    return new Error(
      `port ${port} on ${host} is already in use; stop the other process, or choose another port with --port N (--port 0 picks a free one)`,
      {
        cause: error,
      },
    );
  if (code === "EACCES")
    return new Error(
      `not allowed to listen on ${where} (ports below 1024 need privileges); choose another port with --port N (--port 0 picks a free one)`,
      {
        cause: error,
      },
    );
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
    return new Error(
      `cannot listen on ${where}: no such interface on this machine; use --host 127.0.0.1 (or 0.0.0.0 for every interface)`,
      {
        cause: error,
      },
    );
  return new Error(`cannot listen on ${where} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
}
