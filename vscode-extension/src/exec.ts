// Running the scalelint binary for a one-off answer (rules, explain,
// version). No vscode import.

import { execFile } from 'node:child_process';

export function run(bin: string, args: string[], timeoutMs = 10000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const detail = String(stderr).trim();
        reject(new Error(`${bin} ${args.join(' ')}: ${err.message}${detail ? `\n${detail}` : ''}`));
        return;
      }
      resolve(String(stdout));
    });
  });
}
