// Finding the scalelint binary: the scalelint.path setting, else the binary
// bundled in the .vsix for this platform, else `scalelint` on PATH. Pure
// logic (no vscode import): every input is a parameter, so it is unit-tested
// with any platform, file system and environment.

import * as fs from 'node:fs';
import * as path from 'node:path';

export const INSTALL_COMMAND = 'go install github.com/scalelint/scalelint/cmd/scalelint@latest';

/** Where the release archives and packages are (.goreleaser.yaml names them). */
export const RELEASES_URL = 'https://github.com/scalelint/scalelint/releases';

export type ServerSource = 'setting' | 'bundled' | 'path';

export interface ResolveInput {
  /** The scalelint.path setting ('' or undefined when unset). */
  setting?: string;
  /** The first workspace folder, for a relative scalelint.path and ${workspaceFolder}. */
  workspaceFolder?: string;
  /** The extension's install directory (context.extensionPath). */
  extensionPath: string;
  platform: NodeJS.Platform;
  arch: string;
  env: Record<string, string | undefined>;
  /** Whether a file exists and can be executed; defaults to the real file system. */
  isExecutable?: (file: string) => boolean;
}

export interface Candidate {
  source: ServerSource;
  path: string;
  ok: boolean;
}

export type Resolution =
  | { ok: true; path: string; source: ServerSource; tried: Candidate[]; warnings: string[] }
  | { ok: false; tried: Candidate[]; warnings: string[]; message: string };

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function exeName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'scalelint.exe' : 'scalelint';
}

/** The directory name vsce's --target uses for a platform: linux-x64, darwin-arm64, win32-x64, linux-armhf, ... */
export function platformDir(platform: NodeJS.Platform, arch: string): string {
  return `${platform}-${arch === 'arm' ? 'armhf' : arch}`;
}

/** Where a platform-specific .vsix carries the server: server/<platform>-<arch>/scalelint. */
export function bundledServerPath(extensionPath: string, platform: NodeJS.Platform, arch: string): string {
  return pathApi(platform).join(extensionPath, 'server', platformDir(platform, arch), exeName(platform));
}

export function defaultIsExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === 'win32') {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function envGet(env: Record<string, string | undefined>, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') {
    return env[name];
  }
  // Windows environment names are case-insensitive (Path, PATH).
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/** The places a command name is looked up on PATH, in order (with PATHEXT on Windows). */
export function pathCandidates(name: string, platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  const p = pathApi(platform);
  const dirs = (envGet(env, 'PATH', platform) ?? '').split(p.delimiter).filter((d) => d !== '');
  let names = [name];
  if (platform === 'win32' && p.extname(name) === '') {
    const exts = (envGet(env, 'PATHEXT', platform) ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '');
    names = exts.map((e) => name + e.toLowerCase());
  }
  const out: string[] = [];
  for (const d of dirs) {
    for (const n of names) {
      out.push(p.join(d, n));
    }
  }
  return out;
}

/**
 * Expands a scalelint.path setting: ~ and ${userHome} to the home
 * directory, ${workspaceFolder} to the first folder, and a relative path
 * (one with a separator) against that folder. A bare name (no separator)
 * is returned as is: it is looked up on PATH.
 */
export function expandSetting(
  setting: string,
  opts: { workspaceFolder?: string; platform: NodeJS.Platform; env: Record<string, string | undefined> },
): { path: string; bare: boolean } | { error: string } {
  const p = pathApi(opts.platform);
  const home = envGet(opts.env, opts.platform === 'win32' ? 'USERPROFILE' : 'HOME', opts.platform) ?? '';
  let s = setting.trim();
  if (s.includes('${workspaceFolder}')) {
    if (!opts.workspaceFolder) {
      return { error: `scalelint.path "${setting}" uses \${workspaceFolder}, but no folder is open` };
    }
    s = s.split('${workspaceFolder}').join(opts.workspaceFolder);
  }
  s = s.split('${userHome}').join(home);
  if (s === '~' || s.startsWith('~/') || (opts.platform === 'win32' && s.startsWith('~\\'))) {
    s = home + s.slice(1);
  }
  const hasSep = s.includes('/') || (opts.platform === 'win32' && s.includes('\\'));
  if (!hasSep) {
    return { path: s, bare: true };
  }
  if (!p.isAbsolute(s)) {
    if (!opts.workspaceFolder) {
      return { error: `scalelint.path "${setting}" is relative, but no folder is open to resolve it against` };
    }
    s = p.join(opts.workspaceFolder, s);
  }
  return { path: p.normalize(s), bare: false };
}

/**
 * The release files for a platform, by the names .goreleaser.yaml gives
 * them (<version> stands for the release's): the archive, and on Linux the
 * .deb and .rpm packages. Empty for a platform without a release build.
 */
export function releaseFiles(platform: NodeJS.Platform, arch: string): string[] {
  const goos = ({ linux: 'linux', darwin: 'darwin', win32: 'windows' } as Record<string, string>)[platform];
  const goarch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[arch];
  if (!goos || !goarch) {
    return [];
  }
  const files = [`scalelint_<version>_${goos}_${goarch}.${goos === 'windows' ? 'zip' : 'tar.gz'}`];
  if (goos === 'linux') {
    files.push(`scalelint_<version>_${goarch}.deb`, `scalelint-<version>-1.${goarch === 'amd64' ? 'x86_64' : 'aarch64'}.rpm`);
  }
  return files;
}

/**
 * The message shown when no binary works: what was tried and the ways to
 * install one on this platform (go install, and the release's files).
 */
export function notFoundMessage(tried: string[], platform: NodeJS.Platform, arch: string): string {
  const files = releaseFiles(platform, arch);
  const download =
    files.length === 0
      ? ''
      : `, or download ${files.length === 1 ? files[0] : `${files.slice(0, -1).join(', ')} or ${files[files.length - 1]}`} ` +
        `from ${RELEASES_URL} and put scalelint on PATH`;
  return (
    `No usable scalelint binary (tried ${tried.join(', ')}). ` +
    `Install it with \`${INSTALL_COMMAND}\` (the binary lands in $(go env GOPATH)/bin, which must be on PATH)${download}; ` +
    `or set scalelint.path to it.`
  );
}

/**
 * Resolves the server binary. An explicit scalelint.path that does not work
 * is reported in warnings and the search goes on, so a stale setting never
 * leaves the user without a server when another one is at hand.
 */
export function resolveServer(input: ResolveInput): Resolution {
  const isExec = input.isExecutable ?? defaultIsExecutable;
  const tried: Candidate[] = [];
  const warnings: string[] = [];
  const check = (source: ServerSource, file: string): boolean => {
    const ok = isExec(file);
    tried.push({ source, path: file, ok });
    return ok;
  };

  const setting = (input.setting ?? '').trim();
  if (setting !== '') {
    const exp = expandSetting(setting, input);
    if ('error' in exp) {
      warnings.push(exp.error);
    } else if (exp.bare) {
      for (const c of pathCandidates(exp.path, input.platform, input.env)) {
        if (check('setting', c)) {
          return { ok: true, path: c, source: 'setting', tried, warnings };
        }
      }
      warnings.push(`scalelint.path "${setting}" was not found on PATH`);
    } else {
      if (check('setting', exp.path)) {
        return { ok: true, path: exp.path, source: 'setting', tried, warnings };
      }
      warnings.push(`scalelint.path "${setting}" is not an executable file (${exp.path})`);
    }
  }

  const bundled = bundledServerPath(input.extensionPath, input.platform, input.arch);
  if (check('bundled', bundled)) {
    return { ok: true, path: bundled, source: 'bundled', tried, warnings };
  }

  for (const c of pathCandidates(exeName(input.platform).replace(/\.exe$/, ''), input.platform, input.env)) {
    if (check('path', c)) {
      return { ok: true, path: c, source: 'path', tried, warnings };
    }
  }
  const summary = [
    ...(setting !== '' ? [`scalelint.path "${setting}"`] : []),
    `the bundled ${bundled}`,
    'scalelint on PATH',
  ];
  return { ok: false, tried, warnings, message: notFoundMessage(summary, input.platform, input.arch) };
}
