;;; scalelint.el --- scalelint's language server in Emacs through eglot  -*- lexical-binding: t -*-

;; Load this file from your init file, or copy its forms there. It needs
;; eglot (built into Emacs 29; `M-x package-install RET eglot' or Debian's
;; elpa-eglot on Emacs 28), a YAML major mode (yaml-mode or yaml-ts-mode),
;; and `scalelint' on `exec-path'. eglot runs one server per buffer, so in
;; YAML buffers scalelint takes the place of yaml-language-server.
;; lsp/e2e/emacs.el loads this file and drives the server through it.

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((yaml-mode yaml-ts-mode) . ("scalelint" "lsp"))))

;; Start scalelint in every YAML buffer.
(add-hook 'yaml-mode-hook #'eglot-ensure)
(add-hook 'yaml-ts-mode-hook #'eglot-ensure)
