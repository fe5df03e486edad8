// The platforms the extension ships a server for: vsce's target names, the
// Go GOOS/GOARCH that builds for each, and the executable format and
// machine that a binary for it must have (check-vsix.mjs reads its header).
// A universal package (no --target) carries no server and finds one through
// scalelint.path or PATH.

/** @type {Record<string, {goos: string, goarch: string, format: 'elf' | 'macho' | 'pe', arch: 'x64' | 'arm64'}>} */
export const TARGETS = {
  'linux-x64': { goos: 'linux', goarch: 'amd64', format: 'elf', arch: 'x64' },
  'linux-arm64': { goos: 'linux', goarch: 'arm64', format: 'elf', arch: 'arm64' },
  'darwin-x64': { goos: 'darwin', goarch: 'amd64', format: 'macho', arch: 'x64' },
  'darwin-arm64': { goos: 'darwin', goarch: 'arm64', format: 'macho', arch: 'arm64' },
  'win32-x64': { goos: 'windows', goarch: 'amd64', format: 'pe', arch: 'x64' },
  'win32-arm64': { goos: 'windows', goarch: 'arm64', format: 'pe', arch: 'arm64' },
};

export const UNIVERSAL = 'universal';

/** The server's file name on a target: scalelint.exe on Windows. */
export function exeName(target) {
  return target.startsWith('win32-') ? 'scalelint.exe' : 'scalelint';
}

/** This machine's vsce target (linux-x64, darwin-arm64, win32-x64, linux-armhf, ...). */
export function hostTarget() {
  const arch = { arm: 'armhf' }[process.arch] ?? process.arch;
  return `${process.platform}-${arch}`;
}
