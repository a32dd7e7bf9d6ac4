"""A clock the tests set by hand (the service's ``clock``: seconds since the epoch)."""


class Clock:
    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t
