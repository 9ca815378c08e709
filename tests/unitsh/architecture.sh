#!/usr/bin/env bash
# docs/architecture.md stays true: the rooms' #include arrows run one way (no circle of rooms),
# engine/'s root keeps at most 20 files,
# no circle of files using each other's functions, of any length (read from the built objects
# with nm), no call from a lower room into a higher one (a room's calls, read with the same nm,
# run the way its #include arrows run), tui/cli/ reaches the engine through engine/api/ only,
# no function in engine/ or tui/ is over 120 lines unless docs/architecture.md lists
# it with its reason, and neither the engine outside engine/rungs/ nor the faces that start runs
# ask for a rung by its number, in a comparison or as a `case N:` of a switch on a rung
# (test_rung_plugin checks that data/rungs.json and the schemas agree with the table).
# kl-test: once (it reads sources and objects; nothing of ours runs)
. tests/tap.sh
set -u

out=$(python3 - "$KL_BUILD" <<'EOF'
import collections, os, re, subprocess, sys

build = sys.argv[1]
SRC = ['engine', 'tui', 'casedb', 'importers', 'common']

def room(path):
    if path in ('tui/main.c', 'tui/app.c'):
        return 'tui (entry)'  # on top of views/ and cli/; the rest of tui/ is what they share
    parts = path.split('/')
    if parts[0] in ('engine', 'tui') and len(parts) > 2:
        return parts[0] + '/' + parts[1]
    return parts[0]

def sources(ext):
    for top in SRC:
        for d, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith(ext):
                    yield os.path.join(d, f)

def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in sorted(graph):
        if v not in index: visit(v)
    return out

# 1. rooms
arrows, why = collections.defaultdict(set), {}
for p in list(sources('.c')) + list(sources('.h')):
    for inc in re.findall(r'#include "([^"]+)"', open(p, errors='replace').read()):
        if not os.path.exists(inc):
            continue
        a, b = room(p), room(inc)
        if a != b:
            arrows[a].add(b); why.setdefault((a, b), '%s -> %s' % (p, inc))
        if p.startswith('tui/cli/') and inc.startswith('engine/') and not inc.startswith('engine/api/'):
            print('PAST %s -> %s' % (p, inc))  # the verbs see the engine through engine/api/ only
for comp in cycles(arrows):
    back = [why[(a, b)] for a in comp for b in comp if (a, b) in why]
    print('ROOMS %s (%s)' % (' <-> '.join(comp), '; '.join(back[:6])))
print('rooms %d' % len(set(arrows) | {b for v in arrows.values() for b in v}))
# the core stays small: what does not need to be there has a room of its own
core = sorted(f for f in os.listdir('engine') if os.path.isfile(os.path.join('engine', f)))
print('core %d %s' % (len(core), ' '.join(core)))

# 2. file circles, from the objects
defs, uses = {}, collections.defaultdict(set)
objs = [os.path.join(d, f) for top in SRC for d, _, files in os.walk(os.path.join(build, 'obj', top))
        for f in files if f.endswith('.o')]
# one nm for all of them: -A puts "FILE:" before each symbol line
nm = subprocess.run(['nm', '-g', '-A'] + objs, capture_output=True, text=True).stdout
for line in nm.splitlines():
    path, _, rest = line.partition(':')
    name = os.path.relpath(path, os.path.join(build, 'obj'))[:-2] + '.c'
    if not os.path.exists(name):
        continue  # left in the build folder by a source that has moved since
    w = rest.split()
    uses.setdefault(name, set())
    if len(w) == 3 and w[1] in 'TDBRC':
        defs[w[2]] = name
    elif len(w) == 2 and w[0] == 'U':
        uses[name].add(w[1])
# a circle of any length: the files of one strongly connected component of "uses a function
# of"; one path around it is printed (each step names the symbol), so the link to cut shows
graph = {a: {defs[t] for t in syms if defs.get(t) not in (None, a)} for a, syms in uses.items()}
for comp in cycles(graph):
    inside, start = set(comp), comp[0]
    # shortest way back to start, breadth first, inside the component
    prev, queue = {start: None}, [start]
    while queue and start not in [w for v in queue for w in graph[v]]:
        nxt = []
        for v in queue:
            for w in sorted(graph[v] & inside):
                if w not in prev:
                    prev[w] = v; nxt.append(w)
        queue = nxt
    last = next(v for v in queue if start in graph[v])
    path = [last]
    while prev[path[-1]] is not None:
        path.append(prev[path[-1]])
    path = path[::-1] + [start]
    steps = ['%s -(%s)-> ' % (a, sorted(t for t in uses[a] if defs.get(t) == b)[0])
             for a, b in zip(path, path[1:])]
    print('CIRCLE %d files: %s%s' % (len(comp), ''.join(steps), start))
print('objects %d' % len(uses))

# 2b. calls run down the floors too: a room uses a function or table of another room only where
# its #include arrows already run that way (or run nowhere between the two). A call against an
# arrow, or a circle of rooms calling each other, closes a loop of arrows and calls: a function
# declared in a lower room's header but defined in a higher room links upward though every
# include points down (the worker in the core calling the device check in engine/exec/).
calls, call_why = collections.defaultdict(set), {}
for a, syms in sorted(uses.items()):
    for t in sorted(syms):
        b = defs.get(t)
        if b is None or room(a) == room(b):
            continue
        calls[room(a)].add(room(b))
        call_why.setdefault((room(a), room(b)), '%s -(%s)-> %s' % (a, t, b))
both = collections.defaultdict(set)
for g in (arrows, calls):
    for a, bs in g.items():
        both[a] |= bs
for comp in cycles(both):
    inside = set(comp)
    # the calls of the loop that no include arrow runs along: those are the upward ones
    up = sorted(call_why[(a, b)] for a in comp for b in calls.get(a, ()) if b in inside
                and b not in arrows.get(a, ()))
    print('UPWARD %s (%s)' % (' <-> '.join(comp), '; '.join(up[:6]) or 'calls along the arrows'))
print('call arrows %d' % sum(len(v) for v in calls.values()))

# 3. long functions, less the ones docs/architecture.md keeps
kept = set(re.findall(r'^\| `([A-Za-z_0-9]+)` \|', open('docs/architecture.md').read(), re.M))
for p in sources('.c'):
    if not p.startswith(('engine/', 'tui/')):
        continue
    lines = open(p, errors='replace').read().split('\n')
    for i, l in enumerate(lines):
        if l != '{' or i == 0:
            continue
        j = i - 1
        while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(('}', '#', '/*', ' *')) \
                and not lines[j - 1].endswith(';'):
            j -= 1
        k = i + 1
        while k < len(lines) and lines[k] != '}':
            k += 1
        m = re.search(r'([A-Za-z_][A-Za-z_0-9]*)\s*\(', ' '.join(lines[j:i + 1]))
        name = m.group(1) if m else '?'
        if k - j + 1 > 120 and name not in kept:
            print('LONG %s:%d %s %d lines' % (p, j + 1, name, k - j + 1))

# 4. rung numbers outside the rungs' own files
pat = re.compile(r'\brung\w*\s*(==|!=|<=|>=|<|>)\s*[1-9]\b|(settings|has_rung)\[[1-9]\]|\beng_rung[1-9]\b')
for p in list(sources('.c')) + list(sources('.h')):
    # the engine and the faces that start runs; views of recorded results show the ladder of
    # data/rungs.json, whose numbers are data
    faces = '/cli/' in p or p.endswith(('view_launch.c', 'run_e2e.c'))
    if not (p.startswith('engine/') or faces):
        continue
    if p.startswith('engine/rungs/') or p in ('engine/tables/ladder.c', 'engine/rung.h'):
        continue
    on_rung = False  # inside a switch whose expression names a rung: its case labels are numbers
    for n, l in enumerate(open(p, errors='replace'), 1):
        code = l.split('//')[0]
        if code.lstrip().startswith(('*', '/*')):
            continue
        sw = re.search(r'\bswitch\s*\((.*)\)', code)
        if sw:
            on_rung = 'rung' in sw.group(1)
        if pat.search(code) or (on_rung and re.search(r'\bcase\s+[1-9][0-9]*\s*:', code)):
            print('NUMBER %s:%d %s' % (p, n, l.strip()[:100]))
EOF
)
echo "$out" | sed 's/^/# /'
rooms=$(grep -c '^ROOMS' <<<"$out")
tap_check "the rooms' arrows run one way ($(grep -o '^rooms [0-9]*' <<<"$out" | cut -d' ' -f2) rooms, $rooms circles)" \
    test "$rooms" -eq 0
core=$(grep -o '^core [0-9]*' <<<"$out" | cut -d' ' -f2)
tap_check "engine/'s root (the core) holds at most 20 files ($core)" test "${core:-99}" -le 20
objects=$(grep -o '^objects [0-9]*' <<<"$out" | cut -d' ' -f2)
tap_check "objects were read ($objects)" test "${objects:-0}" -gt 50
tap_check "no circle of files using each other's functions, of any length ($(grep -c '^CIRCLE' <<<"$out") circles)" \
    test "$(grep -c '^CIRCLE' <<<"$out")" -eq 0
tap_check "tui/cli/ includes the engine through engine/api/ only ($(grep -c '^PAST' <<<"$out") includes past it)" \
    test "$(grep -c '^PAST' <<<"$out")" -eq 0
calls=$(grep -o '^call arrows [0-9]*' <<<"$out" | cut -d' ' -f3)
tap_check "the rooms' calls were read ($calls arrows)" test "${calls:-0}" -gt 20
tap_check "no call from a lower room into a higher one ($(grep -c '^UPWARD' <<<"$out") loops of calls and arrows)" \
    test "$(grep -c '^UPWARD' <<<"$out")" -eq 0
tap_check "no function in engine/ or tui/ over 120 lines but those docs/architecture.md keeps" \
    test "$(grep -c '^LONG' <<<"$out")" -eq 0
tap_check "no rung asked for by its number outside engine/rungs/" \
    test "$(grep -c '^NUMBER' <<<"$out")" -eq 0
