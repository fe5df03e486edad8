// scalelint for VS Code: a thin client of `scalelint lsp`.

import * as vscode from 'vscode';

import { Controller, type ScalelintApi } from './controller';

let controller: Controller | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<ScalelintApi> {
  controller = new Controller(context);
  context.subscriptions.push({ dispose: () => void controller?.dispose() });
  await controller.start();
  return controller;
}

export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  await c?.dispose();
}
