;;; typing-literalstring.el --- typing-literalstring server with eglot  -*- lexical-binding: t -*-

;; Load this file from your init file, or copy its forms there (docs/editors.md).  eglot is
;; part of Emacs 29; on Emacs 28 install it from GNU ELPA (or Debian's elpa-eglot).
;; eglot starts one server per major mode and project: to run ours beside another Python
;; server, see docs/editors.md.

(require 'eglot)

(defvar typing-literalstring-command '("typing-literalstring" "server")
  "The command that starts the server: typing-literalstring with its server extra.")

(defvar typing-literalstring-settings '(:unverifiedSeverity "warning")
  "The server's settings (docs/server.md).")

(add-to-list 'eglot-server-programs
             `((python-mode python-ts-mode)
               . (,@typing-literalstring-command
                  :initializationOptions ,typing-literalstring-settings)))

(setq-default eglot-workspace-configuration
              `(:typing-literalstring ,typing-literalstring-settings))

(add-hook 'python-mode-hook #'eglot-ensure)
(add-hook 'python-ts-mode-hook #'eglot-ensure)

(provide 'typing-literalstring)
;;; typing-literalstring.el ends here
