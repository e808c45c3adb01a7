"""Who may do what: the campaign's API secret, GM sign-in codes and sessions, the admin secret, CSRF (security.py),
player links and the flash (access.py), the web layer's own errors, and the sign-in and access pages."""
