"""An agent that crashes on its first move, and one that cheats with an illegal move."""


def choose_move(view):
    return {}["no such key"]
