"""Whether the agent item fits a platform's time limit for one grading job.

A platform kills a grading job that runs past its limit, and the student then gets no
grade at all. Before an autograder is exported, the agent item is checked two ways: the
time the config allows all the games (`agent.timeout`, CPU seconds: what a slow agent
may use), and the time the configured games take the reference agent, measured here on
a few games and extrapolated. Both are turned into wall-clock time on the platform, whose
jobs may get less than a whole CPU.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

from grader.inputs.config import AgentGrading, load_config
from grader.inputs.problemset import CONFIG_FILE
from grader.sandbox.host import Limits
from grader.scoring.agentplay import play_agent_games

SAMPLE_GAMES = 10  # reference games timed at export
#: A sandboxed game's CPU time against the same game in the grader's process, rounded up
#: (bench/agent_game_cost.py measures 1.0-1.3x with a handout-style agent).
SANDBOX_FACTOR = 1.5
#: The share of a job's time limit the agent's games may take: the hooks, the boards and
#: a slower agent than the reference need the rest.
AGENT_SHARE = 0.5


@dataclass(frozen=True)
class Platform:
    """Where a grading job runs: its wall-clock `limit` in seconds and the share of a CPU
    (`cpu`) a job gets, so that CPU seconds take 1/cpu times as long there."""

    name: str
    limit: float
    cpu: float = 1.0


def prairielearn(job_timeout: float) -> Platform:
    """PrairieLearn's external grading: the job's `timeout` from info.json (PrairieLearn's
    own default is 30 s and its most 600 s: "timeout ... optional and defaults to 30
    seconds ... cannot exceed 600 seconds", docs/externalGrading.md in
    github.com/PrairieLearn/PrairieLearn; the kit writes `--job-timeout`, 600 unless told)."""
    return Platform("PrairieLearn", job_timeout)


#: Gradescope's autograder: "a default overall timeout of 10 minutes" (up to 40 in the
#: assignment's settings) and "by default, each autograder is allocated 1/2 of a virtual
#: CPU" (docs/troubleshooting.md in github.com/gradescope/autograder_samples).
GRADESCOPE = Platform("Gradescope", 600.0, 0.5)


def reference_seconds_per_game(agent: AgentGrading) -> float:
    """CPU seconds a configured game costs the reference agent, graded in a sandbox:
    SAMPLE_GAMES public games timed in this process, times SANDBOX_FACTOR."""
    started = time.process_time()
    play_agent_games("reference", replace(agent, games=SAMPLE_GAMES, timeout=3600.0), 0, Limits(), None)
    return (time.process_time() - started) / SAMPLE_GAMES * SANDBOX_FACTOR


def agent_time_warnings(problems: Path, platform: Platform) -> list[str]:
    """What in the agent section of `problems`' grading config may not finish within
    `platform`'s limit for a grading job, one line each (none: it fits, or no agent)."""
    path = problems / CONFIG_FILE
    config, errors = load_config(path if path.exists() else None)
    agent = config.agent
    if errors or agent is None:
        return []
    cpu = f" at {platform.cpu:g} of a CPU" if platform.cpu < 1 else ""
    room = platform.limit * AGENT_SHARE * platform.cpu
    warnings = []
    if agent.timeout / platform.cpu > platform.limit:
        warnings.append(
            f"{path}: agent.timeout lets the games use {agent.timeout:g} s of CPU, up to "
            f"{agent.timeout / platform.cpu:.0f} s on {platform.name}{cpu}, past its {platform.limit:g} s "
            f"limit for a grading job: a slow agent's job would be killed with no grade; set agent.timeout "
            f"to at most {room:.0f}"
        )
    per_game = reference_seconds_per_game(agent)
    needed = per_game * agent.games / platform.cpu
    if needed > platform.limit * AGENT_SHARE:
        warnings.append(
            f"{path}: the reference agent's {agent.games} {agent.level} games would take about {needed:.0f} s "
            f"on {platform.name}{cpu} ({per_game * 1000:.1f} ms of CPU a game, timed on {SAMPLE_GAMES} games "
            f"here, the sandbox included), more than {AGENT_SHARE:.0%} of its {platform.limit:g} s limit for "
            f"a grading job; lower agent.games to about {int(room / per_game)}"
        )
    return warnings
