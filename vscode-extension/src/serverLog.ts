// The server's stderr in the output channel at the level it was logged at.
// `scalelint lsp` logs with Go's log/slog text handler
// (`time=... level=INFO msg="..." key=value`); the client's default writes
// every stderr line as an error. Pure logic.

export type LogLevelName = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  level: LogLevelName;
  text: string;
}

const LEVELS: Record<string, LogLevelName> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  WARNING: 'warn',
  ERROR: 'error',
};

/**
 * Reads one stderr line: a slog line keeps its level and loses its
 * timestamp (the channel stamps each line); anything else (a usage
 * message, a panic and its stack) is an error.
 */
export function parseServerLogLine(line: string): LogLine {
  const m = /^(?:time=\S+\s+)?level=([A-Z]+)(?:[+-]\d+)?\s+(.*)$/.exec(line);
  if (m) {
    const level = LEVELS[m[1]];
    if (level) {
      return { level, text: unquoteMsg(m[2]) };
    }
  }
  return { level: 'error', text: line };
}

/** `msg="indexed workspace" files=2` -> `indexed workspace files=2`. */
function unquoteMsg(rest: string): string {
  const q = /^msg="((?:[^"\\]|\\.)*)"(.*)$/.exec(rest);
  if (q) {
    try {
      return (JSON.parse(`"${q[1]}"`) as string) + q[2];
    } catch {
      return q[1] + q[2];
    }
  }
  const w = /^msg=(\S*)(.*)$/.exec(rest);
  return w ? w[1] + w[2] : rest;
}
