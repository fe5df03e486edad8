;;; emacs.el --- end-to-end test of `scalelint lsp' through Emacs and eglot  -*- lexical-binding: t -*-

;; Debian's emacs-nox (28) and elpa-eglot (1.9). run.sh runs it as
;;   emacs --batch -l lsp/e2e/emacs.el
;; under timeout, with FIXTURE_DIR (a copy of ../testdata/workspace),
;; SNIPPET (lsp/editors/emacs/scalelint.el, the configuration the README
;; gives) and a `scalelint' on PATH. It loads the snippet, opens the fixture,
;; starts eglot from the snippet's `eglot-server-programs' entry, waits for
;; the latency-floor diagnostic in flymake (what the user sees), asks for a
;; hover, picks the fix among the code actions as `M-x eglot-code-actions'
;; offers them, and waits for the diagnostic to go away. It prints "ok: ..."
;; lines and PASS, or "FAIL: ..." and exits 1.
;;
;; Batch-mode details: `eglot-ensure' waits for a command loop that batch
;; mode never runs, so the test connects with the contact eglot guesses
;; from the snippet; flymake is started by hand for the same reason; and
;; edits are sent at once rather than on an idle timer.

(require 'cl-lib)
(require 'subr-x)

(defun e2e-say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun e2e-fail (fmt &rest args)
  (e2e-say "FAIL: %s" (apply #'format fmt args))
  (let ((events (get-buffer (format "*EGLOT (fixture/(yaml-mode)) events*"))))
    (when events
      (with-current-buffer events
        (e2e-say "--- eglot events (last 3000 characters) ---\n%s"
                 (buffer-substring (max (point-min) (- (point-max) 3000)) (point-max))))))
  (kill-emacs 1))

(defun e2e-wait (what seconds pred)
  "Process the server's messages until PRED holds, or fail naming WHAT."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred)
      (e2e-fail "%s (after %ss)" what seconds))))

(defun e2e-run ()
 (let ((fixture (getenv "FIXTURE_DIR"))
      (snippet (getenv "SNIPPET")))
  (unless (and fixture snippet)
    (e2e-fail "FIXTURE_DIR and SNIPPET must be set"))
  (require 'eglot)
  (require 'flymake)
  ;; A YAML major mode: yaml-mode when installed, else the least one.
  (unless (fboundp 'yaml-mode)
    (define-derived-mode yaml-mode text-mode "YAML"))
  (add-to-list 'auto-mode-alist '("\\.ya?ml\\'" . yaml-mode))
  (load (expand-file-name snippet) nil t)
  (let ((contact (alist-get 'yaml-mode eglot-server-programs nil nil
                            (lambda (modes mode) (memq mode (ensure-list modes))))))
    (unless (equal contact '("scalelint" "lsp"))
      (e2e-fail "the snippet maps yaml-mode to %S, want (\"scalelint\" \"lsp\")" contact))
    (unless (memq #'eglot-ensure yaml-mode-hook)
      (e2e-fail "the snippet does not start eglot in YAML buffers"))
    (e2e-say "ok: the snippet maps yaml-mode to scalelint lsp (%s)" (executable-find "scalelint")))

  (setq eglot-send-changes-idle-time 0)
  (find-file (expand-file-name "consumer.yaml" fixture))
  (unless (eq major-mode 'yaml-mode)
    (e2e-fail "consumer.yaml opened in %s" major-mode))
  ;; What eglot-ensure does once the command loop runs: connect with the
  ;; guessed contact (the snippet's entry).
  (let ((inhibit-message t))
    (apply #'eglot--connect (eglot--guess-contact)))
  (e2e-wait "the server did not start" 20 (lambda () (eglot-current-server)))
  (e2e-say "ok: eglot connected to %s" (mapconcat #'identity (process-command (jsonrpc--process (eglot-current-server))) " "))
  (flymake-start)

  (let* ((diag-of (lambda ()
                    (cl-find-if (lambda (d) (string-match-p "\\[latency-floor\\]" (flymake-diagnostic-text d)))
                                (flymake-diagnostics))))
         diag)
    (e2e-wait "no latency-floor diagnostic in flymake" 30 diag-of)
    (setq diag (funcall diag-of))
    (let ((covered (buffer-substring-no-properties (flymake-diagnostic-beg diag) (flymake-diagnostic-end diag))))
      (unless (equal covered "\"10\"")
        (e2e-fail "the diagnostic covers %S, want \"10\"" covered))
      (unless (eq (flymake-diagnostic-type diag) 'eglot-error)
        (e2e-fail "the diagnostic is a %s, want an error" (flymake-diagnostic-type diag)))
      (e2e-say "ok: flymake shows %s on line %d"
               (flymake-diagnostic-text diag) (line-number-at-pos (flymake-diagnostic-beg diag))))

    (goto-char (flymake-diagnostic-beg diag))
    (let* ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                   (eglot--TextDocumentPositionParams)))
           (value (plist-get (plist-get hover :contents) :value)))
      (unless (and value (string-match-p "latency-floor" value) (string-match-p "§2 latency floor" value))
        (e2e-fail "hover lacks the rule and the law: %S" hover))
      (e2e-say "ok: hover shows the rule and the evaluated law"))

    ;; M-x eglot-code-actions on the diagnostic, answering its prompt with
    ;; the fix's title.
    (let ((offered nil)
          (last-nonmenu-event ?\r))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (mapcar #'car collection))
                   "Set lagThreshold to 985")))
        (eglot-code-actions (flymake-diagnostic-beg diag) (flymake-diagnostic-end diag) nil t))
      (unless (member "Set lagThreshold to 985" offered)
        (e2e-fail "the fix is not among the code actions %S" offered))
      (e2e-say "ok: applied \"Set lagThreshold to 985\" (offered: %s)" (string-join offered "; ")))
    (unless (string-match-p "lagThreshold: \"985\"" (buffer-string))
      (e2e-fail "the buffer was not fixed:\n%s" (buffer-string)))
    (eglot--signal-textDocument/didChange)
    (e2e-wait "the diagnostic did not go away" 30 (lambda () (null (funcall diag-of))))
    (e2e-say "ok: the diagnostic went away"))

  (let ((inhibit-message t))
    (eglot-shutdown (eglot-current-server)))
  (e2e-say "PASS")
  (kill-emacs 0)))

;; Any Lisp error is a failure with its message, not batch mode's backtrace.
(condition-case err
    (e2e-run)
  (error (e2e-fail "%s" (error-message-string err))))

;;; emacs.el ends here
