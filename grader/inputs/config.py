"""The grading configuration: `grading.yaml` beside the problem files, or `--config FILE`.

    timeout: 10              # seconds (CPU time) per graded item, unless a problem sets its own
    hook_seed: 9871          # build fresh hook test cases from the reference with this
                             # private seed, instead of the public stored ones
    memory_mb: 1024          # each worker process's address space, and all its processes' resident memory
    hooks:                   # points per hook test (partial credit per case)
      constraint_bounds: 2
      forward_check: 3
    problem_sets:            # points per problem, by file name (beats the file's own points)
      course.yaml: 2
    efficiency:              # one item: the solver's nodes against the reference's
      points: 4
      thresholds:            # [largest node ratio, share of the points], first match wins
        - [1.5, 1.0]
        - [3.0, 0.5]
    agent:                   # one item: the playing agent's win rate on seeded games
      level: beginner        # beginner | intermediate | expert
      games: 5000            # a Beginner game: ~7 ms for a handout-style agent
      seed: 48127730         # private: the games are derived from it; never shown to
                             # students. Without it: the public default games (seeds 0,
                             # 1, ...), the same at every run, which anyone can replay
      rules: classic         # classic | opening
      points: 4
      timeout: 240           # seconds (CPU time) for all the games together
      move_timeout: 10       # seconds (CPU time) for one move: a slower move loses its game
      thresholds:            # [least win rate, share of the points]
        - [0.85, 1.0]
        - [0.70, 0.5]
      between: linear        # linear: the share rises in a straight line from one
                             # threshold to the next (from 0 at 0 wins); steps: the
                             # share of the best threshold reached (it jumps)

With 5,000 Beginner games and `linear`, an agent 1 point above a threshold got points
within 8% of the item's points over 20 private seeds; with the old 200 games and `steps`
it got full or half points depending on the games drawn (`bench/README.md`,
`agent_item_spread.py`). Fewer games are cheaper and less stable: the win rate's
standard error is sqrt(rate x (1 - rate) / games). An Intermediate game costs about 12
times a Beginner one, an Expert game over 100 times: lower `games` there.

Every key is optional. Mistakes are reported like problem-file mistakes, one line each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.hooktable import HOOKS, SAT_ENCODING, SAT_ENCODING_POINTS
from grader.inputs.problemset import CONFIG_FILE, ProblemError
from grader.inputs.yamlfile import YamlRefused, read_yaml
from play.levels import LEVELS, RULE_SETS

DEFAULT_TIMEOUT = 10.0
DEFAULT_MEMORY_MB = 1024
CONFIG_KEYS = {"timeout", "memory_mb", "hooks", "problem_sets", "efficiency", "hook_seed", "agent"}
AGENT_KEYS = {"level", "games", "seed", "rules", "points", "timeout", "move_timeout", "thresholds", "between"}
BETWEEN = ("linear", "steps")


@dataclass(frozen=True)
class Efficiency:
    """Points for searching as lean as the reference: node ratio thresholds, tightest first."""

    points: float
    thresholds: tuple[tuple[float, float], ...] = ((1.5, 1.0),)

    def describe(self) -> str:
        """The thresholds in words: "full points up to 1.5x the model answer's nodes, ..."."""
        steps = [f"{share:.0%} of the points up to {largest:g}x" for largest, share in sorted(self.thresholds)]
        return "efficiency: " + ", ".join(steps) + " the model answer's nodes, none above"

    def share(self, ratio: float) -> float:
        """The share of the points earned at this node ratio (solver / reference)."""
        for largest, share in sorted(self.thresholds):
            if ratio <= largest:
                return share
        return 0.0


def _percent(rate: float) -> str:
    """A win rate as a percentage with no needless decimals: 0.85 -> "85%", 0.855 -> "85.5%"."""
    return f"{rate * 100:g}%"


@dataclass(frozen=True)
class AgentGrading:
    """Points for a playing agent's win rate on seeded games.

    `thresholds` are (win rate, share of the points) pairs. With `between="linear"` (the
    default) the share rises in a straight line from one threshold to the next, from no
    points at 0 wins (unless a threshold is at 0) up to the best threshold, and stays
    there above it; with "steps" it is the share of the best threshold reached, so it
    jumps at each threshold. `seed` is private: the games are derived from it, and it is
    never shown; without it the grader plays the public default games.
    """

    level: str = "beginner"
    games: int = 5000
    seed: int | None = None
    rules: str = "classic"
    points: float = 4.0
    timeout: float = 240.0
    move_timeout: float = 10.0
    thresholds: tuple[tuple[float, float], ...] = ((0.85, 1.0), (0.70, 0.5))
    between: str = "linear"

    def corners(self) -> list[tuple[float, float]]:
        """The (win rate, share) points of the linear rule, lowest first: the thresholds,
        from (0, 0) unless one of them is at 0 wins."""
        points = sorted(self.thresholds)
        return points if points and points[0][0] == 0 else [(0.0, 0.0), *points]

    def describe(self) -> str:
        """The rule in words."""
        if self.between == "steps":
            steps = [f"{share:.0%} of the points from {_percent(least)} wins" for least, share in sorted(self.thresholds, reverse=True)]
            return "grading: " + ", ".join(steps) + ", none below"
        corners = self.corners()
        parts = [f"{share:.0%} of the points at {_percent(rate)} wins" for rate, share in corners[:1]]
        parts += [f"{share:.0%} at {_percent(rate)}" for rate, share in corners[1:]]
        return "grading: " + ", ".join(parts) + " and above, in a straight line in between"

    def share(self, win_rate: float) -> float:
        """The share of the points earned at this win rate."""
        if self.between == "steps":
            reached = [threshold for threshold in self.thresholds if win_rate >= threshold[0]]
            return max(reached)[1] if reached else 0.0
        low, high = self.segment(win_rate)
        if low == high:
            return low[1]
        return low[1] + (high[1] - low[1]) * (win_rate - low[0]) / (high[0] - low[0])

    def segment(self, win_rate: float) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of the linear rule around `win_rate` (the top one twice above it)."""
        corners = self.corners()
        for low, high in zip(corners, corners[1:]):
            if win_rate < high[0]:
                return low, high
        return corners[-1], corners[-1]

    def explain(self, win_rate: float) -> str:
        """How the share of the points follows from `win_rate`, with the numbers."""
        share = self.share(win_rate)
        rate = f"{win_rate:.2%}"
        if self.between == "steps":
            reached = [least for least, _ in self.thresholds if win_rate >= least]
            return f"{rate} reaches {_percent(max(reached))}: {share:.0%} of the points" if reached else f"{rate} reaches no threshold"
        (a, low), (b, high) = self.segment(win_rate)
        if a == b:
            return f"{rate} is at or above {_percent(a)}, the best threshold: {_percent(share)} of the points"
        return (
            f"{rate} lies between {_percent(a)} ({low:.0%} of the points) and {_percent(b)} ({high:.0%}): "
            f"{low:.0%} + {(win_rate - a) * 100:.2f}/{(b - a) * 100:g} of the {high - low:.0%} between = {share:.1%} of the points"
        )


@dataclass(frozen=True)
class GradingConfig:
    """Weights and limits for one grading run."""

    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    hook_points: dict[str, float] = field(default_factory=lambda: default_hook_points())
    set_points: dict[str, float] = field(default_factory=dict)
    efficiency: Efficiency | None = None
    hook_seed: int | None = None
    agent: AgentGrading | None = None

    def points_for(self, problem_file: str, own_points: float) -> float:
        """A problem's points: its set's weight from the config, else its own."""
        return self.set_points.get(Path(problem_file).name, own_points)


def default_hook_points() -> dict[str, float]:
    """Points of every hook test, the SAT exercise's included."""
    return {**{h.name: h.points for h in HOOKS if h.part != "agent"}, SAT_ENCODING: SAT_ENCODING_POINTS}


class ConfigError(ValueError):
    """A mistake in the grading config."""


def _positive(value: Any, key: str, allow_zero: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf") or (not allow_zero and value == 0):
        raise ConfigError(f"{key}: must be a number {'>= 0' if allow_zero else '> 0'}, got {value!r}")
    return float(value)


def _mapping(data: dict[str, Any], key: str) -> dict[Any, Any]:
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"{key}: must be a mapping (name: value lines), got {value!r}")
    return value


def _whole(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{key}: must be a whole number >= 1, got {value!r}")
    return value


def _pairs(value: Any, key: str) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list) or not all(isinstance(t, list) and len(t) == 2 for t in value):
        raise ConfigError(f"{key}: must be a list of [number, share] pairs")
    pairs = tuple((_positive(a, key), _positive(b, key)) for a, b in value)
    if any(share > 1 for _, share in pairs):
        raise ConfigError(f"{key}: a share is at most 1")
    return pairs


def _agent(raw: dict[Any, Any]) -> AgentGrading:
    unknown = sorted(set(raw) - AGENT_KEYS, key=str)
    if unknown:
        raise ConfigError(f"agent.{unknown[0]}: unknown setting (known: {', '.join(sorted(AGENT_KEYS))})")
    defaults = AgentGrading()
    level, rules = raw.get("level", defaults.level), raw.get("rules", defaults.rules)
    if level not in LEVELS:
        raise ConfigError(f"agent.level: must be one of {', '.join(LEVELS)}, got {level!r}")
    if rules not in RULE_SETS:
        raise ConfigError(f"agent.rules: must be one of {', '.join(RULE_SETS)}, got {rules!r}")
    seed = raw.get("seed", defaults.seed)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError(f"agent.seed: must be a whole number, got {seed!r}")
    between = raw.get("between", defaults.between)
    if between not in BETWEEN:
        raise ConfigError(f"agent.between: must be one of {', '.join(BETWEEN)}, got {between!r}")
    return AgentGrading(
        level=level,
        games=_whole(raw.get("games", defaults.games), "agent.games"),
        seed=seed,
        rules=rules,
        points=_positive(raw.get("points", defaults.points), "agent.points"),
        timeout=_positive(raw.get("timeout", defaults.timeout), "agent.timeout", allow_zero=False),
        move_timeout=_positive(raw.get("move_timeout", defaults.move_timeout), "agent.move_timeout", allow_zero=False),
        thresholds=_thresholds(raw["thresholds"]) if "thresholds" in raw else defaults.thresholds,
        between=between,
    )


def _thresholds(value: Any) -> tuple[tuple[float, float], ...]:
    """The agent's thresholds, checked: win rates at most 1, each once, and a higher win
    rate never earning a smaller share (a weaker agent must never get more points)."""
    pairs = _pairs(value, "agent.thresholds")
    if any(rate > 1 for rate, _ in pairs):
        raise ConfigError("agent.thresholds: a win rate is at most 1")
    if len({rate for rate, _ in pairs}) < len(pairs):
        raise ConfigError("agent.thresholds: two thresholds at the same win rate")
    ordered = sorted(pairs)
    if any(higher < lower for (_, lower), (_, higher) in zip(ordered, ordered[1:])):
        raise ConfigError("agent.thresholds: a higher win rate must never earn a smaller share")
    return pairs


def parse_config(data: Any) -> GradingConfig:
    """A GradingConfig from parsed YAML; ConfigError names the bad key."""
    if data is None:
        return GradingConfig()
    if not isinstance(data, dict):
        raise ConfigError("must be a mapping of settings")
    unknown = sorted(set(data) - CONFIG_KEYS, key=str)
    if unknown:
        raise ConfigError(f"{unknown[0]}: unknown setting (known: {', '.join(sorted(CONFIG_KEYS))})")
    hook_points = default_hook_points()
    for name, points in _mapping(data, "hooks").items():
        if name not in hook_points:
            raise ConfigError(f"hooks.{name}: no such hook (hooks: {', '.join(hook_points)})")
        hook_points[name] = _positive(points, f"hooks.{name}")
    set_points = {str(name): _positive(points, f"problem_sets.{name}") for name, points in _mapping(data, "problem_sets").items()}
    efficiency = None
    if data.get("efficiency") is not None:
        raw = _mapping(data, "efficiency")
        unknown = sorted(set(raw) - {"points", "thresholds"}, key=str)
        if unknown:
            raise ConfigError(f"efficiency.{unknown[0]}: unknown setting (known: points, thresholds)")
        pairs = _pairs(raw.get("thresholds", [[1.5, 1.0]]), "efficiency.thresholds")
        efficiency = Efficiency(_positive(raw.get("points", 1), "efficiency.points"), pairs)
    agent = _agent(_mapping(data, "agent")) if data.get("agent") is not None else None
    hook_seed = data.get("hook_seed")
    if hook_seed is not None and (isinstance(hook_seed, bool) or not isinstance(hook_seed, int)):
        raise ConfigError(f"hook_seed: must be a whole number, got {hook_seed!r}")
    return GradingConfig(
        agent=agent,
        hook_seed=hook_seed,
        timeout=_positive(data.get("timeout", DEFAULT_TIMEOUT), "timeout", allow_zero=False),
        memory_mb=_whole(data.get("memory_mb", DEFAULT_MEMORY_MB), "memory_mb"),
        hook_points=hook_points,
        set_points=set_points,
        efficiency=efficiency,
    )


def find_config(problems_path: Path, explicit: Path | None) -> Path | None:
    """The config file to use: the one named, else grading.yaml in the problems folder."""
    if explicit is not None:
        return explicit
    folder = problems_path if problems_path.is_dir() else problems_path.parent
    candidate = folder / CONFIG_FILE
    return candidate if candidate.is_file() else None


def load_config(path: Path | None) -> tuple[GradingConfig, list[ProblemError]]:
    """The config at `path` (defaults when None), and its error if it is unusable."""
    if path is None:
        return GradingConfig(), []
    try:
        return parse_config(read_yaml(path)[0]), []
    except OSError as error:
        message = f"cannot read the grading config: {error.strerror}"
    except UnicodeDecodeError:
        message = "is not UTF-8 text"
    except YamlRefused as refused:
        return GradingConfig(), [ProblemError(str(path), refused.message, line=refused.line)]
    except ConfigError as error:
        message = str(error)
    return GradingConfig(), [ProblemError(str(path), message)]
