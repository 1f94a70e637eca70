/** Where the CLI's bundle and its manifest are written. */
export declare const CLI_BUNDLE_DIR: string;
/** The built entry's path while every source it was built from is unchanged, else undefined. */
export declare function currentCliBundle(): string | undefined;
/** Builds the bundle and records it; returns the entry's path. */
export declare function buildCliBundle(): Promise<string>;
/** The entry to start: the current bundle, or a fresh one. */
export declare function cliBundle(): Promise<string>;
/** Removes earlier builds' files (older than an hour) in `dir`, except those in `keep`. */
export declare function removeOldOutput(
  keep: ReadonlySet<string>,
  dir?: string,
  now?: number,
): Promise<void>;
