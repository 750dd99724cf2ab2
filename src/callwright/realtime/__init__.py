"""The only package that imports socketio: the server, rooms and publish()."""
