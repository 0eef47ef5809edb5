-- Neovim 0.11+: cardwright's language server beside yamlls (the YAML language server) for YAML files.
-- Put this in your init.lua (or ~/.config/nvim/lsp/… as you prefer). yamlls reads the `$schema`
-- modeline at the top of each data file, so it needs no cardwright settings.
vim.lsp.config("cardwright", {
  cmd = { "cardwright", "lsp" },           -- or { vim.fn.getcwd() .. "/.venv/bin/cardwright", "lsp" }
  filetypes = { "yaml" },
  root_markers = { "pyproject.toml", ".git" },
  init_options = { debounceMs = 100, writeSchemas = true },
})
vim.lsp.config("yamlls", {
  cmd = { "yaml-language-server", "--stdio" },
  filetypes = { "yaml" },
  root_markers = { ".git" },
  settings = { yaml = { validate = true, completion = true, hover = true } },
})
vim.lsp.enable({ "cardwright", "yamlls" })
