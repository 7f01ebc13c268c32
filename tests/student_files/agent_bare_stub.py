"""An agent not written yet, stubbed the short way: a bare NotImplementedError."""


def choose_move(view):
    raise NotImplementedError
