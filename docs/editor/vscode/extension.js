// A minimal VS Code client for `cardwright lsp`: it starts the server for YAML files and passes
// the settings above as initialization options. The YAML extension (a dependency) keeps doing the
// schema checks; cardwright adds the effect text.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("cardwright");
  const folder = vscode.workspace.workspaceFolders ? vscode.workspace.workspaceFolders[0].uri.fsPath : "";
  const [command, ...args] = config.get("command").map((part) => part.replace("${workspaceFolder}", folder));
  client = new LanguageClient(
    "cardwright",
    "cardwright",
    { command, args },
    {
      documentSelector: [{ scheme: "file", language: "yaml" }],
      initializationOptions: {
        debounceMs: config.get("debounceMs"),
        writeSchemas: config.get("writeSchemas"),
      },
    },
  );
  context.subscriptions.push(client);
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
