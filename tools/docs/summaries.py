"""What a source file holds, in one line: the first sentence of the doc comment of its main type.

The main type of `Outbox.swift` is the type named `Outbox` (else one whose name ends so, as
`StoreProduct` in `Product.swift`); of `Purchases+Calls.swift`, the extension of `Purchases`. A file without one says what it holds in its leading comment
(`Exports.swift`), or in the doc comment of its first documented declaration. Swift is read as
text here: only its declarations' names and the `///` lines above them matter.
"""
import re

DECLARATION = re.compile(
    r"^(?P<indent>[ \t]*)(?:@\w+(?:\([^)\n]*\))?\s+)*"
    r"(?:(?:public|package|internal|private|fileprivate|open|final|indirect|nonisolated|static|mutating)"
    r"(?:\([^)\n]*\))?\s+)*"
    r"(?P<kind>struct|enum|class|protocol|actor|extension|typealias|func|let|var|case)\s+(?P<name>[A-Za-z_][\w.]*)",
    re.M)
TYPES = {"struct", "enum", "class", "protocol", "actor", "typealias"}


def _declarations(lines):
    """(indent, kind, name, doc lines) of every declaration, in order."""
    found = []
    for index, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        doc, above = [], index - 1
        while above >= 0 and (lines[above].strip().startswith("///") or lines[above].strip().startswith("@")):
            if lines[above].strip().startswith("///"):
                doc.insert(0, lines[above].strip()[3:].strip())
            above -= 1
        found.append((len(match.group("indent")), match.group("kind"), match.group("name"), doc))
    return found


def _leading_comment(lines):
    """The `//` block before the first declaration, after the imports (a file-level note)."""
    block = []
    for line in lines:
        text = line.strip()
        if text.startswith("///"):
            return []
        if text.startswith("//"):
            block.append(text[2:].strip())
        elif block or (text and not text.startswith(("import ", "#if", "#endif", "@_exported", "@preconcurrency"))):
            break
    return block


def _c_comment(text):
    match = re.search(r"/\*+(.*?)\*/", text, re.S)
    if match:
        return [line.strip().lstrip("*").strip() for line in match.group(1).splitlines()]
    return [line.strip()[2:].strip() for line in text.splitlines() if line.strip().startswith("//")][:8]


def first_sentence(doc_lines):
    """The first sentence of the first paragraph, on one line."""
    paragraph = []
    for line in doc_lines:
        if not line or (paragraph and re.match(r"[-*] |\d+\. ", line)):   # a blank line, or a list
            if paragraph:
                break
            continue
        paragraph.append(line)
    text = " ".join(paragraph).strip()
    ticks = depth = 0
    for index, char in enumerate(text):
        if char == "`":
            ticks += 1
        elif ticks % 2:
            continue   # inside a code span
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif (char == "." and depth == 0 and re.match(r" [A-Z`(]", text[index + 1:index + 3])
              and not re.search(r"\b(e\.g|i\.e|etc|vs|cf)$", text[:index])):
            return text[:index + 1]
    if text.endswith(":"):
        text = text[:-1] + "."
    return text


def summary(path, text):
    """The one line for a file, or None when nothing in it says what it holds."""
    if not path.endswith(".swift"):
        return first_sentence(_c_comment(text)) or None
    lines = text.splitlines()
    stem = path.rsplit("/", 1)[-1][:-len(".swift")]
    base = stem.split("+", 1)[0]
    declarations = _declarations(lines)
    documented = [d for d in declarations if d[3]]
    choices = []
    if "+" not in stem:
        types = [d for d in documented if d[1] in TYPES]
        choices += [d for d in types if d[2].rsplit(".", 1)[-1] == stem]
        choices += [d for d in types if d[2].endswith(stem)]   # Product.swift holds StoreProduct
    choices += [d for d in documented if d[0] == 0 and d[1] == "extension" and d[2] == base]
    leading = _leading_comment(lines)
    if leading:
        choices.append((0, "comment", stem, leading))
    choices += [d for d in documented if d[0] == 0] + documented
    for _, _, _, doc in choices:
        sentence = first_sentence(doc)
        if sentence:
            return sentence
    return None
