"""What every request of the web app goes through: the request's language and audience (language.py), the guard
(Host, body size and depth, secrets before the body), CORS, HEAD, the one error shape (errors.py, invalid.py), what
routes share (deps.py), the bounds on costly work, the server's protocol (nodelay.py) and its garbage collector."""
