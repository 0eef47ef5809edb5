-- cardwright's language server (and yamlls, the YAML language server, when it is installed) for YAML
-- files, in Neovim 0.7 or later — Debian stable's 0.7 as well as current releases. Put this in your
-- init.lua, or `:luafile` it. No plugin is needed. yamlls reads the `$schema` modeline at the top of
-- each data file, so it needs no cardwright settings.
--
-- Why not `vim.lsp.config` / `vim.lsp.enable`: they exist from Neovim 0.11 only. `vim.lsp.start`
-- (0.8+) is used where it exists; on 0.7 the same client is started with `vim.lsp.start_client` and
-- attached to each YAML buffer.
--
-- Set `vim.g.cardwright_cmd` first to run another cardwright, e.g.
--   vim.g.cardwright_cmd = { vim.fn.getcwd() .. "/.venv/bin/cardwright", "lsp" }

local function root_of(bufnr)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":p:h")
  local project = vim.fn.findfile("pyproject.toml", dir .. ";")
  if project ~= "" then
    return vim.fn.fnamemodify(project, ":p:h")
  end
  local git = vim.fn.finddir(".git", dir .. ";")
  if git ~= "" then
    return vim.fn.fnamemodify(git, ":p:h:h")
  end
  return dir
end

local servers = {
  {
    name = "cardwright",
    cmd = vim.g.cardwright_cmd or { "cardwright", "lsp" },
    init_options = { debounceMs = 100, writeSchemas = true },
  },
}
if vim.fn.executable("yaml-language-server") == 1 then -- npm install -g yaml-language-server
  table.insert(servers, {
    name = "yamlls",
    cmd = { "yaml-language-server", "--stdio" },
    settings = { yaml = { validate = true, completion = true, hover = true } },
  })
end

local started = {} -- Neovim 0.7: one client per server and root, attached to each buffer

local function attach(bufnr)
  local root = root_of(bufnr)
  for _, server in ipairs(servers) do
    local config = vim.tbl_extend("force", server, { root_dir = root })
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = bufnr })
    else
      local key = server.name .. "\0" .. root
      if not started[key] then
        started[key] = vim.lsp.start_client(config)
      end
      if started[key] then
        vim.lsp.buf_attach_client(bufnr, started[key])
      end
    end
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "yaml",
  callback = function(args)
    attach(args.buf)
  end,
})
