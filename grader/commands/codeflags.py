"""Which submissions build code from data: what the similarity report cannot compare.

copydetect reads a string as one token, whatever it holds, so a classmate's code shipped
as data (base64, hex, zlib, rot13, a pickle) and run with `exec`, `eval`, `compile`, an
import by a computed name or an unpickled function shares nothing with the file it came
from. This module reads each file's syntax tree, never running it, and names every place
that turns data into code or holds data that looks encoded, so that the instructor reads
those files by hand. A flag is a reason to look, not a verdict, and changes no grade.

Reading is bounded: a file over `READ_LIMIT` bytes is not parsed, and a file the parser
refuses (a syntax error, NUL bytes, nesting too deep, no memory left) gets one flag saying
that it could not be read.
"""

from __future__ import annotations

import ast
import re

from grader.sandbox.wire import clean_text

READ_LIMIT = 1 << 20  # bytes of one file parsed at most (a 1 MB file takes about 130 MB as a tree)
#: Characters of encoded-looking data that earn a flag. A hook file has no such run (its
#: strings are words, boards and short names; a SHA-256 in hex is 64), while any hook
#: worth copying, even compressed, encodes to more.
ENCODED_MIN = 256
PIECE_MIN = 32  # encoded-looking strings this long add up towards ENCODED_MIN (data cut into pieces)
SHORT_CODE = 80  # exec/eval/compile of a literal up to this long is left alone: eval("1 + 1")
FLAGS_SHOWN = 5  # flags shown per file; the rest are counted

#: What runs text or data as code, by where it lives.
RUNNERS = frozenset(
    {
        "builtins.exec",
        "builtins.eval",
        "builtins.compile",
        "builtins.__import__",
        "importlib.import_module",
        "importlib.__import__",
        "importlib.util.spec_from_file_location",
        "importlib.util.spec_from_loader",
        "importlib.machinery.SourceFileLoader",
        "importlib.machinery.SourcelessFileLoader",
        "runpy.run_path",
        "runpy.run_module",
        "types.FunctionType",
        "types.LambdaType",
        "types.CodeType",
        "marshal.loads",
        "marshal.load",
        "pickle.loads",
        "pickle.load",
        "_pickle.loads",
        "_pickle.load",
        "code.InteractiveInterpreter",
        "code.InteractiveConsole",
        "code.interact",
        "codeop.compile_command",
    }
)
COMPILERS = frozenset({"builtins.exec", "builtins.eval", "builtins.compile"})  # fine on short literal code
IMPORTERS = frozenset({"builtins.__import__", "importlib.import_module", "importlib.__import__"})  # fine on a literal name
WATCHED = frozenset({name.rsplit(".", 1)[0] for name in RUNNERS} | {"importlib"})  # reached by a computed name: flagged
BUILTIN_RUNNERS = frozenset({"exec", "eval", "compile", "__import__"})
INTERNALS = frozenset({"__subclasses__", "__globals__", "__code__", "__builtins__", "f_globals", "f_builtins"})
ROT13 = frozenset({"rot13", "rot_13"})

_BASE64 = re.compile(r"[A-Za-z0-9+/=_-]+")
_HEX = re.compile(r"(?:[0-9a-fA-F]|\\x[0-9a-fA-F]{2})+")
_MAGIC = ((b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda"), "zlib"), ((b"\x1f\x8b",), "gzip"), ((b"BZh",), "bz2"), ((b"\xfd7zXZ",), "xz")


def read_flags(label: str, source: str) -> list[str]:
    """The flags of the file shown as `label` with text `source`, one line each, at most
    `FLAGS_SHOWN` and a count of the rest."""
    size = len(source.encode("utf-8", errors="replace"))
    if size > READ_LIMIT:
        found = [f"could not be read: {size / 2**20:.1f} MB, more than the {READ_LIMIT >> 20} MB this check parses"]
    else:
        try:
            found = _Reader(ast.parse(source)).flags()
        except SyntaxError as error:
            where = f" (line {error.lineno})" if error.lineno else ""
            found = [f"could not be read: {clean_text(str(error.msg), 120)}{where}"]
        except (ValueError, RecursionError, MemoryError) as error:
            why = {RecursionError: "nested too deep", MemoryError: "too large or nested too deep to parse"}.get(type(error), str(error))
            found = [f"could not be read: {clean_text(why, 120)}"]
    shown = [f"{label}: {line}" for line in found[:FLAGS_SHOWN]]
    if len(found) > FLAGS_SHOWN:
        shown.append(f"{label}: {len(found) - FLAGS_SHOWN} more")
    return shown


def encoded_kind(value: str | bytes) -> str:
    """What the literal `value` looks like when it looks encoded ("" when it does not)."""
    if isinstance(value, bytes):
        kind = next((name for magics, name in _MAGIC if value.startswith(magics)), "")
        if kind:
            return f"{kind}-compressed"
        text = value.decode("latin-1")
    else:
        text = value
    compact = text.replace("\n", "").replace("\r", "")
    digits = any(c.isdigit() for c in compact)
    if _HEX.fullmatch(compact) and digits and ("\\x" in compact or any(c in "abcdefABCDEF" for c in compact)):
        return "hex"
    if _BASE64.fullmatch(compact) and digits and any(c.isupper() for c in compact) and any(c.islower() for c in compact):
        return "base64"  # identifiers rarely mix both cases and digits; base64 this long always does
    if sum(not (c.isprintable() or c in "\t\r\n") for c in text) * 10 > len(text):
        return "binary"
    return ""


def _text(node: ast.AST) -> str | None:
    """The string of a literal node (None for anything else)."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class _Reader:
    """One file's tree and what it was found to do."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.aliases: dict[str, str] = {}  # a name bound by an import: what it names
        bound: set[str] = set()  # names the file binds itself (a student's own `compile` is not the builtin)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                self.aliases.update({alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names})
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
        self.builtins = {name: f"builtins.{name}" for name in BUILTIN_RUNNERS - bound}
        for node in ast.walk(tree):  # `b = __import__("builtins")`: b names the module from then on
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                if (name := self.resolve(node.value)) is not None:
                    self.aliases[node.targets[0].id] = name
        self.found: list[tuple[int, str]] = []
        self.judged: set[int] = set()  # nodes already read as the function of a call
        self.pieces: list[tuple[int, int]] = []  # (line, length) of shorter encoded-looking literals

    def flags(self) -> list[str]:
        """Every flag of the file, by line."""
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                self._call(node)
            elif isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and id(node) not in self.judged:
                self._value(node)
            if isinstance(node, ast.Attribute) and node.attr in INTERNALS:
                self._flag(node, f"reaches the interpreter's internals (.{node.attr})")
            elif isinstance(node, ast.Constant):
                self._constant(node)
            elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and len(node.elts) >= ENCODED_MIN:
                if all(isinstance(e, ast.Constant) and type(e.value) is int and 0 <= e.value < 256 for e in node.elts):
                    self._flag(node, f"a literal of {len(node.elts)} byte values")
        total = sum(length for _, length in self.pieces)
        if total >= ENCODED_MIN:
            self.found.append((self.pieces[0][0], f"{len(self.pieces)} encoded-looking strings, {total} characters in all"))
        return [f"line {line}: {what}" for line, what in sorted(self.found)]

    def _flag(self, node: ast.AST, what: str) -> None:
        self.found.append((getattr(node, "lineno", 0), what))

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name `node` stands for, when it reaches one of the modules or
        builtins watched here (`builtins.exec` for `getattr(__builtins__, "exec")`)."""
        if isinstance(node, ast.Name):
            return "builtins" if node.id == "__builtins__" else self.aliases.get(node.id) or self.builtins.get(node.id)
        if isinstance(node, ast.Attribute):
            base = "builtins" if node.attr == "__builtins__" else self.resolve(node.value)
            return base if base is None or node.attr in ("__dict__", "__builtins__") else f"{base}.{node.attr}"
        if isinstance(node, ast.Subscript):
            base, key = self.resolve(node.value), _text(node.slice)
            if key is None or base is None:
                return None
            return key if base in ("sys.modules", "globals") and key != "__builtins__" else "builtins" if key == "__builtins__" else f"{base}.{key}"
        if isinstance(node, ast.Call):
            return self._call_result(node)
        return None

    def _call_result(self, node: ast.Call) -> str | None:
        """What a call returns, when it is a watched module or callable: `getattr(x, "name")`,
        `vars(x)`, `globals()`, `__import__("name")`."""
        func, args = node.func, node.args
        if isinstance(func, ast.Name) and func.id not in self.aliases:
            if func.id == "getattr" and len(args) >= 2 and (name := _text(args[1])) is not None:
                base = self.resolve(args[0])
                return f"{base}.{name}" if base else None
            if func.id == "vars" and len(args) == 1:
                return self.resolve(args[0])
            if func.id == "globals" and not args:
                return "globals"
        if self.resolve(func) in IMPORTERS and args:
            return _text(args[0])
        return None

    def _call(self, node: ast.Call) -> None:
        """Flag a call that runs data as code, or reaches a watched module by a computed name."""
        name = self.resolve(node.func)
        self.judged.add(id(node.func))
        if name is None:
            func = node.func
            if isinstance(func, ast.Name) and func.id == "getattr" and len(node.args) >= 2 and _text(node.args[1]) is None:
                if (base := self.resolve(node.args[0])) in WATCHED:
                    self._flag(node, f"takes a name of {base} computed at run time (getattr)")
            if id(node) not in self.judged and (result := self.resolve(node)) in RUNNERS:
                self._flag(node, f"takes {result} as a value")
            return
        first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("source", "name")), None)
        literal = first.value if isinstance(first, ast.Constant) and isinstance(first.value, (str, bytes)) else None
        short = name.removeprefix("builtins.")
        if name in IMPORTERS:
            if literal is None:
                self._flag(node, f"imports a module named at run time ({short})")
        elif name in COMPILERS:
            if literal is None:
                self._flag(node, f"{short}() of a value computed at run time")
            elif len(literal) > SHORT_CODE:
                self._flag(node, f"{short}() of a {len(literal)}-character literal (code in a string is not compared)")
        elif name in RUNNERS:
            self._flag(node, f"calls {name}")

    def _value(self, node: ast.Name | ast.Attribute | ast.Subscript) -> None:
        """Flag a runner taken as a value (`run = exec`) and a computed key into a watched module."""
        name = self.resolve(node)
        if name in RUNNERS:
            self._flag(node, f"takes {name} as a value")
        elif isinstance(node, ast.Subscript) and _text(node.slice) is None and (base := self.resolve(node.value)) in WATCHED:
            self._flag(node, f"takes a name of {base} computed at run time ([...])")

    def _constant(self, node: ast.Constant) -> None:
        """Flag encoded-looking data and the rot13 codec's name."""
        value = node.value
        if not isinstance(value, (str, bytes)):
            return
        if isinstance(value, str) and value.casefold().replace("-", "_") in ROT13:
            self._flag(node, "names the rot13 codec")
        if len(value) < PIECE_MIN or not (kind := encoded_kind(value)):
            return
        if len(value) >= ENCODED_MIN:
            self._flag(node, f"a {len(value)}-character {kind} literal")
        else:
            self.pieces.append((node.lineno, len(value)))
