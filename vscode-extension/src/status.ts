// What the status bar item shows for each server state. Pure logic.

export type ServerState = 'starting' | 'running' | 'stopped' | 'error' | 'notFound';

export interface StatusView {
  text: string;
  tooltip: string;
  /** A theme color id for the background, when the state needs attention. */
  background?: string;
}

export interface StatusDetail {
  /** The binary and where it came from. */
  server?: string;
  version?: string;
  message?: string;
}

const LABELS: Record<ServerState, { icon: string; words: string; background?: string }> = {
  starting: { icon: '$(loading~spin)', words: 'starting' },
  running: { icon: '$(check)', words: 'running' },
  stopped: { icon: '$(circle-slash)', words: 'stopped', background: 'statusBarItem.warningBackground' },
  error: { icon: '$(error)', words: 'failed', background: 'statusBarItem.errorBackground' },
  notFound: { icon: '$(error)', words: 'binary not found', background: 'statusBarItem.errorBackground' },
};

export function statusView(state: ServerState, detail: StatusDetail = {}): StatusView {
  const l = LABELS[state];
  const lines = [`scalelint language server: ${l.words}`];
  if (detail.server) {
    lines.push(`Server: ${detail.server}${detail.version ? ` (${detail.version})` : ''}`);
  }
  if (detail.message) {
    lines.push(detail.message);
  }
  lines.push('Click to show the output.');
  return { text: `${l.icon} scalelint`, tooltip: lines.join('\n'), background: l.background };
}
