-- scalelint's language server for Neovim, in nvim-lspconfig's configuration
-- shape: a lsp/<name>.lua file that returns the server's configuration.
-- Neovim 0.11+: save it as ~/.config/nvim/lsp/scalelint.lua and call
-- vim.lsp.enable('scalelint'); with nvim-lspconfig installed, it extends the
-- plugin's configurations the same way. lsp/e2e/nvim.lua starts the server
-- from this file.
return {
  cmd = { 'scalelint', 'lsp' },
  filetypes = { 'yaml' },
  root_markers = { '.scalelint.yaml', '.scalelint.yml', '.git' },
  -- The keys of .scalelint.yaml, over the project's file, e.g.
  -- { scalelint = { rules = { ['ceiling-over-peak'] = 'off' } } }
  settings = { scalelint = {} },
}
