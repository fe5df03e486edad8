-- End-to-end test of `scalelint lsp` through Neovim 0.7's built-in client
-- (Debian's neovim package). run.sh runs it as
--   nvim --headless --clean -c 'luafile nvim.lua' -c 'cquit 3'
-- under timeout, with FIXTURE_DIR (a copy of the fixture), SNIPPET
-- (lsp/editors/nvim/lsp/scalelint.lua, the configuration the README gives)
-- and a `scalelint` on PATH. It starts the server from the snippet's
-- configuration, opens the fixture, waits for the expected diagnostic, asks
-- for a hover and the code action, applies it and waits for the diagnostic
-- to go away. It prints "ok: ..." lines and exits 0, or "FAIL: ..." and
-- exits 1. Neovim 0.7 has no vim.lsp.start nor root_markers (0.11):
-- start_client + buf_attach_client, and the root found here as 0.11 would.

local out = io.stdout
local snippet = os.getenv('SNIPPET')
local dir = os.getenv('FIXTURE_DIR')

local function fail(msg)
  out:write('FAIL: ' .. msg .. '\n')
  out:flush()
  vim.cmd('cquit 1')
end

local function ok(msg)
  out:write('ok: ' .. msg .. '\n')
  out:flush()
end

if not snippet or not dir then
  fail('SNIPPET and FIXTURE_DIR must be set')
end

local ok_load, cfg = pcall(dofile, snippet)
if not ok_load or type(cfg) ~= 'table' then
  fail('the snippet ' .. snippet .. ' does not return a configuration: ' .. tostring(cfg))
end
if not vim.deep_equal(cfg.cmd, { 'scalelint', 'lsp' }) then
  fail('the snippet runs ' .. vim.inspect(cfg.cmd) .. ', want { "scalelint", "lsp" }')
end
if vim.fn.exepath(cfg.cmd[1]) == '' then
  fail(cfg.cmd[1] .. ' is not on PATH')
end
ok('the snippet runs ' .. table.concat(cfg.cmd, ' ') .. ' (' .. vim.fn.exepath(cfg.cmd[1]) .. ')')

vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/consumer.yaml'))
local buf = vim.api.nvim_get_current_buf()
if not vim.tbl_contains(cfg.filetypes or {}, vim.bo[buf].filetype) then
  fail('the snippet\'s filetypes ' .. vim.inspect(cfg.filetypes) .. ' miss ' .. vim.bo[buf].filetype)
end
-- The nearest directory up from the file that holds a root marker, else
-- the file's directory (run.sh puts a .scalelint.yaml beside the fixture).
local root = dir
local d = dir
while d and d ~= '/' do
  local found = false
  for _, m in ipairs(cfg.root_markers or {}) do
    if vim.loop.fs_stat(d .. '/' .. m) then
      found = true
    end
  end
  if found then
    root = d
    break
  end
  d = vim.fn.fnamemodify(d, ':h')
end
if root ~= dir then
  fail('the root is ' .. root .. ', want ' .. dir .. ' (its .scalelint.yaml is a root marker)')
end
local client_id = vim.lsp.start_client({
  name = 'scalelint',
  cmd = cfg.cmd,
  root_dir = root,
  settings = cfg.settings,
  flags = { debounce_text_changes = 0 },
  init_options = { debounceMs = 0 },
})
if not client_id then
  fail('the client did not start')
end
vim.lsp.buf_attach_client(buf, client_id)

local function diagnostics()
  return vim.diagnostic.get(buf)
end

local waited = vim.wait(20000, function()
  local d = diagnostics()
  return #d == 1 and d[1].code == 'latency-floor'
end, 10)
if not waited then
  fail('no latency-floor diagnostic: ' .. vim.inspect(diagnostics()))
end
local d = diagnostics()[1]
local line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1]
if line:sub(d.col + 1, d.end_col) ~= '"10"' then
  fail('diagnostic range covers ' .. line:sub(d.col + 1, d.end_col))
end
ok('latency-floor diagnostic at ' .. d.lnum .. ':' .. d.col)

local client = vim.lsp.get_client_by_id(client_id)
local uri = vim.uri_from_bufnr(buf)
local position = { line = d.lnum, character = d.col }
local hover = client.request_sync('textDocument/hover', { textDocument = { uri = uri }, position = position }, 10000, buf)
if not hover or hover.err or not hover.result then
  fail('hover: ' .. vim.inspect(hover))
end
local value = hover.result.contents.value or ''
if not value:find('latency-floor', 1, true) or not value:find('§2 latency floor', 1, true) then
  fail('hover lacks the rule and the law: ' .. value)
end
ok('hover shows the rule and the evaluated law')

local range = { start = position, ['end'] = { line = d.end_lnum, character = d.end_col } }
local actions = client.request_sync('textDocument/codeAction', {
  textDocument = { uri = uri },
  range = range,
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, d.lnum) },
}, 10000, buf)
if not actions or actions.err or not actions.result then
  fail('codeAction: ' .. vim.inspect(actions))
end
local fix
for _, a in ipairs(actions.result) do
  if a.title == 'Set lagThreshold to 985' then
    fix = a
  end
end
if not fix then
  fail('no fix among ' .. vim.inspect(vim.tbl_map(function(a) return a.title end, actions.result)))
end
vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
ok('applied "' .. fix.title .. '"')

waited = vim.wait(20000, function()
  return #diagnostics() == 0
end, 10)
if not waited then
  fail('the diagnostic did not go away: ' .. vim.inspect(diagnostics()))
end
local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
if not text:find('lagThreshold: "985"', 1, true) then
  fail('the buffer was not fixed:\n' .. text)
end
ok('the diagnostic went away')

vim.lsp.stop_client(client_id)
out:write('PASS\n')
out:flush()
vim.cmd('qall!')
