/**
 * The refusal and the "corrupt" message, apart from extract.ts so that the server's side of
 * unzip (run-extract.ts, unzip.service.ts) does not load the archive libraries (7z-wasm, yauzl,
 * tar-stream, iconv-lite): only the worker thread that extracts needs them (issue 25: start
 * time and memory at rest).
 */

/** A refusal the person can act on; its message is shown as it is. */
export class ExtractError extends Error {}

export const CORRUPT = '压缩包已损坏或不完整，无法解压';
