// Starts `typing-literalstring server` for Python files and shows what it publishes.
//
// The server does the work (docs/server.md); this extension only starts it over stdio and
// passes the `typing-literalstring.*` settings on, as initializationOptions and on each change.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

const SECTION = "typing-literalstring";
let client: LanguageClient | undefined;

function settings(): Record<string, unknown> {
  const configuration = vscode.workspace.getConfiguration(SECTION);
  const keys = [
    "checker",
    "profile",
    "python",
    "pythonVersion",
    "platform",
    "reportAny",
    "unverifiedSeverity",
    "debounceMilliseconds",
  ];
  const chosen: Record<string, unknown> = {};
  for (const key of keys) {
    const value = configuration.get(key);
    // A workspace the user has not trusted does not pick the interpreter the server starts.
    if (key === "python" && !vscode.workspace.isTrusted) {
      continue;
    }
    if (value !== null && value !== undefined) {
      chosen[key] = value;
    }
  }
  return chosen;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // Machine scope: only the user's own settings choose the program that runs.
  const command = vscode.workspace
    .getConfiguration(SECTION)
    .get<string[]>("command", ["typing-literalstring", "server"]);
  if (command.length === 0) {
    void vscode.window.showErrorMessage(
      "typing-literalstring.command is empty: give the command that starts the server, " +
        'such as ["typing-literalstring", "server"].',
    );
    return;
  }
  const serverOptions: ServerOptions = {
    command: command[0],
    args: command.slice(1),
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "python" }],
    initializationOptions: settings(),
    synchronize: { configurationSection: SECTION },
  };
  client = new LanguageClient(SECTION, "typing-literalstring", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.command`)) {
        void vscode.window.showInformationMessage(
          "typing-literalstring.command changed: reload the window to restart the server.",
        );
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client !== undefined) {
    await client.stop();
  }
}
