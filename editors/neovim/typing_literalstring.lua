-- typing-literalstring server in Neovim (docs/editors.md): source this file from your
-- init.lua (`dofile("/path/to/typing_literalstring.lua")`) or copy it there.
--
-- The command must be typing-literalstring installed with its server extra, in the project's
-- environment or on PATH: pip install 'typing-literalstring[server]'.
local cmd = vim.g.typing_literalstring_cmd or { "typing-literalstring", "server" }
-- The server's settings (docs/server.md), sent at start and when asked.
local settings = {
  ["typing-literalstring"] = vim.g.typing_literalstring_settings or {
    unverifiedSeverity = "warning",
  },
}
-- The files that mark a project root, as `check` finds it.
local root_markers = { "pyproject.toml", "setup.cfg", "setup.py", ".git" }

if vim.lsp.config ~= nil and vim.lsp.enable ~= nil then
  -- Neovim 0.11 and later.
  vim.lsp.config("typing_literalstring", {
    cmd = cmd,
    filetypes = { "python" },
    root_markers = root_markers,
    init_options = settings["typing-literalstring"],
    settings = settings,
  })
  vim.lsp.enable("typing_literalstring")
  return
end

-- Neovim 0.7 to 0.10: one client per project root, attached to its Python buffers.
local clients = {}

local function root_of(file)
  local folder = vim.fn.fnamemodify(file, ":p:h")
  while true do
    for _, marker in ipairs(root_markers) do
      if vim.loop.fs_stat(folder .. "/" .. marker) ~= nil then
        return folder
      end
    end
    local parent = vim.fn.fnamemodify(folder, ":h")
    if parent == folder then
      return vim.fn.fnamemodify(file, ":p:h")
    end
    folder = parent
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "python",
  callback = function(event)
    local root = root_of(vim.api.nvim_buf_get_name(event.buf))
    if clients[root] == nil then
      clients[root] = vim.lsp.start_client({
        name = "typing_literalstring",
        cmd = cmd,
        root_dir = root,
        workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
        init_options = settings["typing-literalstring"],
        settings = settings,
      })
    end
    if clients[root] ~= nil then
      vim.lsp.buf_attach_client(event.buf, clients[root])
    end
  end,
})
