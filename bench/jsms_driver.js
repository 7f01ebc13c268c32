// Plays JSMinesweeper's solver (github.com/DavidNHill/JSMinesweeper) headless under node
// on layouts given one per line on stdin, and writes one result per line on stdout.
//
//     node bench/jsms_driver.js /path/to/JSMinesweeper < layouts.jsonl > results.jsonl
//
// This file is ours; it holds none of JSMinesweeper's code. It loads the solver's own
// browser scripts from the user's copy (the folder that holds index.html), in the order
// index.html loads them, into node's global scope (as <script> tags would), without
// main.js, which draws the page: the few page functions the solver calls are stubbed
// here, and the binomial cache main.js sets up is built as main.js builds it.
//
// A layout line: {"seed": 7, "rows": 16, "cols": 30, "mines": [[r, c], ...], "first": [0, 0]}
// (the mines after the first click's relocation; `first` is safe; an optional
// "first_value", the number it shows, is checked). A result line:
// {"seed": 7, "won": true, "cpu": 0.0123, "guesses": 3, "clicks": 41, "log": [[r, c, p], ...]},
// where cpu is the process's user + system seconds spent on that game (process.cpuUsage),
// one core's time, and log lists the solver's guesses (cell and mine probability).
// An optional "prefix" in the layout line, [[r, c], ...], are safe cells opened before the
// solver plays (those already revealed are skipped): it then plays on from that position
// (bench/jsms_losses.py asks it to play on from the agent's positions).
//
// The game is played as JSMinesweeper's own bulk run plays it (bulkRun in main.js): the
// options are the bulk run's (no flags, advanced guessing, full probability), the first
// action of each reply is played, and the ones after it while they are certain; a guess
// ends the reply.
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");
const readline = require("readline");

const root = process.argv[2];
if (!root || !fs.existsSync(path.join(root, "Minesweeper", "client", "solver_main.js"))) {
    process.stderr.write("usage: node jsms_driver.js /path/to/JSMinesweeper < layouts.jsonl (the folder with Minesweeper/client/solver_main.js)\n");
    process.exit(2);
}

// Math.random is used by the solver only for hash keys (BruteForceAnalysis); seeded for
// repeatable runs.
let rngState = 0x9e3779b9;
Math.random = function () {
    rngState = (rngState + 0x6d2b79f5) | 0;
    let t = rngState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// What main.js would provide to the solver's scripts, as main.js sets it: messages go
// nowhere (stdout carries the results alone).
console.log = console.info = console.warn = function () {};
globalThis.showMessage = function () {};
globalThis.oldrng = false;
globalThis.analysisMode = false;  // playing, not the page's analysis mode
globalThis.analysing = false;
globalThis.BOMB = 9;              // main.js's tile codes
globalThis.HIDDEN = 10;
globalThis.sleep = async function () {};  // the page's pause to repaint: nothing to repaint here
globalThis.document = { getElementById: () => null };
globalThis.window = globalThis;

const SCRIPTS = [
    "Minesweeper/Utility/Compression.js",
    "Minesweeper/client/Board.js",
    "Minesweeper/client/Tile.js",
    "Minesweeper/client/solver_main.js",
    "Minesweeper/client/solver_probability_engine.js",
    "Minesweeper/client/Brute_force.js",
    "Minesweeper/client/BruteForceAnalysis.js",
    "Minesweeper/client/MinesweeperGame.js",
    "Minesweeper/client/SolutionCounter.js",
    "Minesweeper/client/EfficiencyHelper.js",
    "Minesweeper/client/FiftyFiftyHelper.js",
    "Minesweeper/client/LongTermRiskHelper.js",
    "Minesweeper/Utility/PrimeSieve.js",
    "Minesweeper/Utility/Binomial.js",
];
for (const script of SCRIPTS) {
    const file = path.join(root, script);
    vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
}
// As main.js sets it up (MAX_BINOMIAL_N = 65000; a cache of 5,000 above n = 500).
vm.runInThisContext("binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));");
const js = (name) => vm.runInThisContext(name);

const OPTIONS = { playStyle: js("PLAY_STYLE_NOFLAGS"), verbose: false, advancedGuessing: true, fullProbability: true, hardcore: false };

function cpuSeconds() {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
}

async function play(layout) {
    const ServerGame = js("ServerGame"), Board = js("Board"), applyResults = js("applyResults"), solver = js("solver");
    const IN_PLAY = js("IN_PLAY"), WON = js("WON"), ACTION_CLEAR = js("ACTION_CLEAR");
    const { rows, cols } = layout;
    const count = layout.mines.length;
    const array = [cols, rows, count];
    for (const [r, c] of layout.mines) array.push(c, r);
    const [fr, fc] = layout.first || [0, 0];
    const start = fr * cols + fc;
    const game = new ServerGame(0, cols, rows, count, start, 0, "safe");
    game.resetMinesUsingArray(array);  // the given layout (its start tile: the first safe one, unused here)
    const board = new Board(0, cols, rows, count, 0, "safe");
    globalThis.board = board;  // the page's current board, which LongTermRiskHelper reads for its size
    if (layout.first_value != null && game.getTile(start).getValue() != layout.first_value) {
        throw new Error("seed " + layout.seed + ": the first cell shows " + game.getTile(start).getValue() + " here, " + layout.first_value + " in the layout given");
    }
    let reply = game.clickTile(game.getTile(start));
    applyResults(board, reply);
    for (const [r, c] of layout.prefix || []) {
        if (!board.getTileXY(c, r).isCovered()) continue;
        reply = game.clickTile(game.getTile(r * cols + c));
        if (reply.header.status != IN_PLAY) throw new Error("seed " + layout.seed + ": the prefix cell " + r + "," + c + " ends the game");
        applyResults(board, reply);
    }
    const log = [];
    let guesses = 0, clicks = 1, loop = 0;
    while (reply.header.status == IN_PLAY && loop++ < 10000) {
        const answer = await solver(board, OPTIONS);
        const actions = answer.actions;
        for (let i = 0; i < actions.length; i++) {
            const action = actions[i];
            if (action.action != ACTION_CLEAR) continue;  // no flags are asked for in this play style
            if (i == 0 || action.prob == 1) {
                if (action.prob != 1) {
                    guesses++;
                    log.push([action.y, action.x, 1 - action.prob]);
                }
                reply = game.clickTile(game.getTile(board.xy_to_index(action.x, action.y)));
                clicks++;
                if (reply.header.status != IN_PLAY) break;
                applyResults(board, reply);
            }
            if (action.prob != 1) break;
        }
        if (actions.length == 0) break;
    }
    return { won: reply.header.status == WON, guesses, clicks, log };
}

async function main() {
    await js("solver")();  // main.js's start-up call: the solver's entry points for its helpers
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        if (!line.trim()) continue;
        const layout = JSON.parse(line);
        const before = cpuSeconds();
        const result = await play(layout);
        const cpu = cpuSeconds() - before;
        process.stdout.write(JSON.stringify({ seed: layout.seed, won: result.won, cpu, guesses: result.guesses, clicks: result.clicks, log: result.log }) + "\n");
    }
}

main().catch((error) => {
    process.stderr.write(String(error && error.stack || error) + "\n");
    process.exit(1);
});
