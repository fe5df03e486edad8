// The language client's life: finding the binary, starting `scalelint lsp`
// over stdio, bounded restarts after crashes, settings pushed and pulled
// in the server's shape, the status bar item, and the rule documentation.

import * as readline from 'node:readline';
import type { Readable } from 'node:stream';

import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  type ErrorHandler,
  type Executable,
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
  State,
} from 'vscode-languageclient/node';

import { run } from './exec';
import { RestartPolicy } from './restartPolicy';
import { parseServerLogLine } from './serverLog';
import { explainTextToMarkdown, parseRules, ruleAt, ruleSection, type RuleInfo } from './rules';
import { INSTALL_COMMAND, resolveServer, type Resolution, type ServerSource } from './serverPath';
import { readSettings, RESTART_SETTINGS, SECTION, toServerSettings, translateConfigurationResult, type ServerSettings } from './settings';
import { statusView, type ServerState } from './status';

export const CLIENT_ID = 'scalelint';
export const RULE_SCHEME = 'scalelint-rule';

export const COMMANDS = {
  restart: 'scalelint.restartServer',
  showOutput: 'scalelint.showOutput',
  explainRule: 'scalelint.explainRule',
} as const;

/** The documents the server lints: YAML files and unsaved YAML buffers. */
export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled', language: 'yaml' },
];

export interface ServerInfo {
  path: string;
  source: ServerSource;
  version?: string;
}

/** What activate() returns: for tests and for other extensions. */
export interface ScalelintApi {
  readonly state: ServerState;
  readonly server: ServerInfo | undefined;
  readonly client: LanguageClient | undefined;
  readonly onDidChangeState: vscode.Event<ServerState>;
  restart(): Promise<void>;
}

function pipeLines(input: Readable, each: (line: string) => void): void {
  readline.createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 }).on('line', each);
}

export class Controller implements vscode.Disposable, ScalelintApi {
  readonly output: vscode.LogOutputChannel;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly policy = new RestartPolicy();
  private readonly disposables: vscode.Disposable[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private _client: LanguageClient | undefined;
  private _server: ServerInfo | undefined;
  private _state: ServerState = 'starting';
  private stateMessage: string | undefined;
  private rulesCache = new Map<string, Promise<RuleInfo[]>>();
  private docsCache = new Map<string, Promise<string>>();
  private disposed = false;

  readonly onDidChangeState = this.stateEmitter.event;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('scalelint', { log: true });
    this.statusItem = vscode.window.createStatusBarItem('scalelint.status', vscode.StatusBarAlignment.Right, 100);
    this.statusItem.name = 'scalelint';
    this.statusItem.command = COMMANDS.showOutput;
    this.render();
    this.statusItem.show();

    this.disposables.push(
      this.output,
      this.statusItem,
      this.stateEmitter,
      vscode.commands.registerCommand(COMMANDS.restart, () => this.restart()),
      vscode.commands.registerCommand(COMMANDS.showOutput, () => this.output.show(true)),
      vscode.commands.registerCommand(COMMANDS.explainRule, (rule?: unknown) => this.explainRule(typeof rule === 'string' ? rule : undefined)),
      vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, {
        provideTextDocumentContent: (uri) => this.ruleDocument(uri.path.replace(/^\//, '').replace(/\.md$/, '')),
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The other scalelint.* settings reach the running server through
        // the client's configuration sync (see the middleware below).
        if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) {
          this.output.info('scalelint.path changed: restarting the server');
          void this.restart();
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        // The server indexes its folders at initialize and does not take
        // workspace/didChangeWorkspaceFolders: a new process sees them all.
        this.output.info('workspace folders changed: restarting the server');
        void this.restart();
      }),
    );
  }

  get state(): ServerState {
    return this._state;
  }

  get server(): ServerInfo | undefined {
    return this._server;
  }

  get client(): LanguageClient | undefined {
    return this._client;
  }

  /** Runs start/stop/restart one at a time, in call order. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  start(): Promise<void> {
    return this.serial(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.serial(() => this.doStop());
  }

  restart(): Promise<void> {
    return this.serial(async () => {
      this.policy.reset();
      this.rulesCache.clear();
      this.docsCache.clear();
      await this.doStop();
      await this.doStart();
    });
  }

  private setState(state: ServerState, message?: string): void {
    if (state === this._state && message === this.stateMessage) {
      return;
    }
    this._state = state;
    this.stateMessage = message;
    this.render();
    this.stateEmitter.fire(state);
  }

  private render(): void {
    const s = this._server;
    const view = statusView(this._state, {
      server: s ? `${s.path} (${s.source === 'setting' ? 'scalelint.path' : s.source === 'bundled' ? 'bundled' : 'PATH'})` : undefined,
      version: s?.version,
      message: this.stateMessage,
    });
    this.statusItem.text = view.text;
    this.statusItem.tooltip = view.tooltip;
    this.statusItem.backgroundColor = view.background ? new vscode.ThemeColor(view.background) : undefined;
  }

  private configuration(scope?: vscode.Uri): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION, scope);
  }

  /** The settings in the server's shape (lsp/config.go). */
  serverSettings(scope?: vscode.Uri): ServerSettings {
    const cfg = this.configuration(scope);
    return toServerSettings(readSettings((k) => cfg.get(k)));
  }

  private resolve(): Resolution {
    const cfg = this.configuration();
    return resolveServer({
      setting: cfg.get<string>('path'),
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      extensionPath: this.context.extensionPath,
      platform: process.platform,
      arch: process.arch,
      env: process.env,
    });
  }

  // cannotStart reports a server that cannot be started (none found, or
  // one that does not run) with the ways out: install one, or point
  // scalelint.path at one.
  private cannotStart(state: 'notFound' | 'error', message: string): void {
    this.output.error(message);
    this.setState(state, message);
    void vscode.window.showErrorMessage(message, 'Copy install command', 'Open settings', 'Show output').then((pick) => {
      if (pick === 'Copy install command') {
        void vscode.env.clipboard.writeText(INSTALL_COMMAND);
      } else if (pick === 'Open settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'scalelint.path');
      } else if (pick === 'Show output') {
        this.output.show(true);
      }
    });
  }

  private async doStart(): Promise<void> {
    if (this.disposed || this._client) {
      return;
    }
    const res = this.resolve();
    for (const w of res.warnings) {
      this.output.warn(w);
      void vscode.window.showWarningMessage(`scalelint: ${w}; using another binary if one is found.`);
    }
    if (!res.ok) {
      this._server = undefined;
      this.cannotStart('notFound', res.message);
      return;
    }
    this._server = { path: res.path, source: res.source };
    this.output.info(`server: ${res.path} (from ${res.source})`);
    // A binary that does not run at all (wrong platform, no exec bit, a
    // stray file) is told apart here, with one clear message, rather than
    // by the client's connection errors.
    try {
      const v = (await run(res.path, ['version'], 10000)).trim();
      this._server.version = v.replace(/^scalelint\s+/, '');
    } catch (e) {
      const msg = `The scalelint binary ${res.path} (from ${res.source === 'setting' ? 'scalelint.path' : res.source}) does not run: ` +
        `${e instanceof Error ? e.message : String(e)}. Install one with \`${INSTALL_COMMAND}\` or set scalelint.path.`;
      this.cannotStart('error', msg);
      return;
    }

    // No `transport`: TransportKind.stdio would append --stdio to the
    // arguments, a flag `scalelint lsp` refuses. Without it the client
    // still speaks over the process's stdin and stdout.
    const exe: Executable = { command: res.path, args: ['lsp'] };
    let reachedRunning = false;
    const errorHandler: ErrorHandler = {
      // Logged by the client; the closed handler below speaks to the user.
      error: (_error, _message, count) => ({
        action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      }),
      closed: () => {
        if (!reachedRunning) {
          // It died before answering initialize: a broken binary or a
          // refused flag, not a crash. start() fails and says so, once.
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        const d = this.policy.crashed();
        this.output.warn(d.message);
        if (d.restart) {
          void vscode.window.showWarningMessage(d.message, 'Show output').then((pick) => {
            if (pick === 'Show output') {
              this.output.show(true);
            }
          });
          return { action: CloseAction.Restart, handled: true };
        }
        this.setState('error', d.message);
        void vscode.window.showErrorMessage(d.message, 'Restart server', 'Show output').then((pick) => {
          if (pick === 'Restart server') {
            void this.restart();
          } else if (pick === 'Show output') {
            this.output.show(true);
          }
        });
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      outputChannel: this.output,
      traceOutputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      stdioOptions: {
        stdout: (input, channel) => pipeLines(input, (line) => channel.info(line)),
        stderr: (input, channel) =>
          pipeLines(input, (line) => {
            const l = parseServerLogLine(line);
            channel[l.level](l.text);
          }),
      },
      // A function: a restart after a crash sends the settings of that moment.
      initializationOptions: () => this.serverSettings(),
      synchronize: { configurationSection: SECTION },
      errorHandler,
      initializationFailedHandler: (error) => {
        this.output.error(`initialize failed: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      },
      middleware: {
        workspace: {
          // Push: send the settings in the server's shape rather than the
          // raw section (which carries path and trace, unknown to the server).
          didChangeConfiguration: async () => {
            const c = this._client;
            if (c && c.isRunning()) {
              await c.sendNotification(DidChangeConfigurationNotification.type, { settings: this.serverSettings() });
            }
          },
          // Pull: the server asks for the "scalelint" section when a push
          // carries nothing; answer in the same shape.
          configuration: async (params, token, next) => {
            const results = await next(params, token);
            if (!Array.isArray(results)) {
              return results;
            }
            return translateConfigurationResult(params.items, results, (scope) =>
              this.serverSettings(scope ? vscode.Uri.parse(scope) : undefined),
            );
          },
        },
      },
    };
    const client = new LanguageClient(CLIENT_ID, 'scalelint', { run: exe, debug: exe }, clientOptions);
    this._client = client;
    client.onDidChangeState((e) => {
      if (this._client !== client) {
        return;
      }
      if (e.newState === State.Starting) {
        this.setState('starting');
      } else if (e.newState === State.Running) {
        reachedRunning = true;
        this.setState('running');
      } else if (e.newState === State.Stopped && this._state !== 'error') {
        this.setState('stopped');
      }
    });
    this.setState('starting');
    try {
      await client.start();
      const info = client.initializeResult?.serverInfo;
      if (this._server && info?.version) {
        this._server.version = info.version;
      }
      this.output.info(`${info?.name ?? 'scalelint'} ${info?.version ?? ''} running`.trim());
      this.setState('running');
      this.render(); // the version, now known
    } catch (e) {
      const msg = `The scalelint server (${res.path}) failed to start: ${e instanceof Error ? e.message : String(e)}. ` +
        `Reinstall it with \`${INSTALL_COMMAND}\` or set scalelint.path.`;
      this.output.error(msg);
      this.setState('error', msg);
      void vscode.window.showErrorMessage(msg, 'Show output').then((pick) => {
        if (pick === 'Show output') {
          this.output.show(true);
        }
      });
    }
  }

  private async doStop(): Promise<void> {
    const client = this._client;
    if (!client) {
      return;
    }
    try {
      if (client.needsStop()) {
        await client.stop(3000);
      }
    } catch (e) {
      this.output.warn(`stopping the server: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this._client = undefined;
      if (!this.disposed) {
        this.setState('stopped');
      }
    }
  }

  private serverBinary(): string | undefined {
    if (this._server) {
      return this._server.path;
    }
    const res = this.resolve();
    if (!res.ok) {
      this.cannotStart('notFound', res.message);
      return undefined;
    }
    return res.path;
  }

  private rules(bin: string): Promise<RuleInfo[]> {
    let p = this.rulesCache.get(bin);
    if (!p) {
      p = run(bin, ['rules', '--format', 'json']).then(parseRules);
      p.catch(() => this.rulesCache.delete(bin));
      this.rulesCache.set(bin, p);
    }
    return p;
  }

  /** A rule's documentation as Markdown, from the binary in use. */
  ruleDocument(rule: string): Promise<string> {
    const bin = this.serverBinary();
    if (!bin) {
      return Promise.resolve(`# ${rule}\n\nNo scalelint binary: install it with \`${INSTALL_COMMAND}\`.\n`);
    }
    const key = `${bin}\0${rule}`;
    let p = this.docsCache.get(key);
    if (!p) {
      p = run(bin, ['rules', '--format', 'markdown'])
        .then((md) => ruleSection(md, rule))
        .catch(() => undefined)
        .then(async (section) => section ?? explainTextToMarkdown(await run(bin, ['explain', rule])));
      p.catch(() => this.docsCache.delete(key));
      this.docsCache.set(key, p);
    }
    return p;
  }

  /**
   * "scalelint: Explain rule": a quick pick of the rules (the one under the
   * cursor first), then the rule's documentation in a Markdown preview.
   */
  async explainRule(rule?: string): Promise<void> {
    const bin = this.serverBinary();
    if (!bin) {
      return;
    }
    let rules: RuleInfo[];
    try {
      rules = await this.rules(bin);
    } catch (e) {
      const msg = `scalelint: could not list the rules: ${e instanceof Error ? e.message : String(e)}`;
      this.output.error(msg);
      void vscode.window.showErrorMessage(msg);
      return;
    }
    if (rule === undefined) {
      const editor = vscode.window.activeTextEditor;
      const here = editor ? ruleAt(vscode.languages.getDiagnostics(editor.document.uri), editor.selection.active) : undefined;
      const ordered = here ? [...rules.filter((r) => r.name === here), ...rules.filter((r) => r.name !== here)] : rules;
      const pick = await vscode.window.showQuickPick(
        ordered.map((r) => ({ label: r.name, description: r.severity, detail: r.title })),
        { title: 'scalelint: Explain rule', placeHolder: 'Rule to explain', matchOnDescription: true, matchOnDetail: true },
      );
      if (!pick) {
        return;
      }
      rule = pick.label;
    }
    if (!rules.some((r) => r.name === rule)) {
      void vscode.window.showErrorMessage(`scalelint: unknown rule "${rule}" (scalelint rules lists them)`);
      return;
    }
    const uri = vscode.Uri.from({ scheme: RULE_SCHEME, path: `/${rule}.md` });
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      // No Markdown preview (the built-in extension disabled): the source.
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
    }
  }

  private disposing: Promise<void> | undefined;

  /** Stops the server and releases everything; safe to call more than once. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      await this.stop();
      this.disposed = true;
      for (const d of this.disposables.reverse()) {
        d.dispose();
      }
    })();
    return this.disposing;
  }
}
