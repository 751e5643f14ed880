#!/usr/bin/env python3
"""Builds and checks the ERP question sets (data/bench/erp/*.jsonl) against the sample database.

  build: reads questions.src and offtopic.src (next to this script), runs every gold SQL on the
         database, derives gold_tables and gold_columns from EXPLAIN (VERBOSE, FORMAT JSON) and
         writes ../questions.jsonl and ../offtopic.jsonl; then does the same for values.src
         (questions that name data values) into ../values.jsonl, ids erp-val-NNN, and for each held-out
         set: holdout.src and holdout_offtopic.src into ../holdout.jsonl (in-scope rows erp-hold-NNN
         first, then off-topic rows erp-hold-off-NNN), then holdout2.src and holdout2_offtopic.src
         into ../holdout2.jsonl (erp-h2-NNN, then erp-h2-off-NNN), then holdout3.src and
         holdout3_offtopic.src into ../holdout3.jsonl (erp-h3-NNN, then erp-h3-off-NNN), then
         holdout4.src and holdout4_offtopic.src into ../holdout4.jsonl (erp-h4-NNN, then erp-h4-off-NNN),
         then holdout5.src and holdout5_offtopic.src into ../holdout5.jsonl (erp-h5-NNN, then
         erp-h5-off-NNN).
  check: reads the .jsonl files, runs every gold SQL again, re-derives the gold sets and fails
         on any difference, on a column missing from information_schema.columns, on a gold table
         not named in the SQL, on columns read from the SQL text that differ from the plan's, or on
         a malformed off-topic row; then prints the counts (values.jsonl after the other two, then
         holdout.jsonl, holdout2.jsonl, holdout3.jsonl, holdout4.jsonl and holdout5.jsonl).

The database must hold data/schemas/erp (schema.sql then data.sql). Connection: --url with a
JDBC or postgresql:// URL, else the usual PGHOST/PGPORT/PGUSER/PGDATABASE environment.
Needs only Python 3 and psql.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
MODULES = ("hr", "sales", "finance", "inventory", "procurement", "support")
OFFTOPIC_CATEGORIES = ("general_knowledge", "chit_chat", "other_business_domain", "prompt_injection",
                       "gibberish", "one_word", "other_language", "code_request", "math")
# Plan fields that hold expressions (every one may name alias.column).
EXPR_FIELDS = ("Output", "Filter", "Join Filter", "Hash Cond", "Merge Cond", "Index Cond", "Recheck Cond",
               "Sort Key", "Presorted Key", "Group Key", "One-Time Filter", "TID Cond", "Order By",
               "Cache Key", "Run Condition")
TABLE_REF = re.compile(r"\b(" + "|".join(MODULES) + r")\.([a-z_][a-z0-9_]*)\b", re.I)


class Db:
    def __init__(self, url):
        env = dict(os.environ)
        if url:
            u = urllib.parse.urlparse(url[5:] if url.startswith("jdbc:") else url)
            q = urllib.parse.parse_qs(u.query)
            env["PGHOST"] = u.hostname or "127.0.0.1"
            if u.port:
                env["PGPORT"] = str(u.port)
            if u.path.strip("/"):
                env["PGDATABASE"] = u.path.strip("/")
            user = u.username or (q.get("user") or [None])[0]
            if user:
                env["PGUSER"] = user
            password = u.password or (q.get("password") or [None])[0]
            if password:
                env["PGPASSWORD"] = password
        env["PGOPTIONS"] = "-c default_transaction_read_only=on -c statement_timeout=20000"
        self.env = env

    def query(self, sql):
        """Runs sql, returns its rows as lists of strings; raises RuntimeError with psql's message."""
        p = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-F", "\x1f", "-v", "ON_ERROR_STOP=1", "-c", sql],
                           env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(p.stderr.strip())
        return [line.split("\x1f") for line in p.stdout.splitlines()]

    def columns(self):
        rows = self.query("SELECT table_schema, table_name, column_name FROM information_schema.columns "
                          "WHERE table_schema IN (" + ",".join("'%s'" % m for m in MODULES) + ") "
                          "ORDER BY table_schema, table_name, ordinal_position")
        cols = collections.OrderedDict()
        for s, t, c in rows:
            cols.setdefault(s + "." + t, []).append(c)
        return cols


def clean_sql(sql):
    return sql.strip().rstrip(";").strip()


def tables_in_text(sql):
    """Schema-qualified table names in order of first reference in the SQL text."""
    seen = []
    for s, t in TABLE_REF.findall(sql):
        name = (s + "." + t).lower()
        if name not in seen:
            seen.append(name)
    return seen


SQL_WORDS = {"on", "where", "join", "left", "right", "full", "inner", "cross", "group", "order", "limit", "using",
             "and", "having", "as", "union", "natural"}


def columns_from_text(sql, catalog, gold_tables):
    """Second, independent derivation of the gold columns from the SQL text: aliases come from
    'schema.table [AS] alias', columns from 'alias.column'; with a single gold table its bare column
    names count too. Relies on the source's rule that multi-table SQL qualifies every column."""
    sql = re.sub(r"'(?:[^']|'')*'", "''", sql)
    aliases = {}
    for s, t, a in re.findall(r"\b(" + "|".join(MODULES) + r")\.(\w+)(?:\s+(?:AS\s+)?(\w+))?", sql, re.I):
        table = (s + "." + t).lower()
        aliases[t] = table
        if a and a.lower() not in SQL_WORDS:
            aliases[a] = table
    cols = set()
    for a, c in re.findall(r"\b(\w+)\.(\w+)\b", sql):
        if a in aliases and c in catalog.get(aliases[a], []):
            cols.add(aliases[a] + "." + c)
    if len(gold_tables) == 1:
        t = gold_tables[0]
        for w in re.findall(r"(?<![\w.])(\w+)\b(?!\s*\()", sql):
            if w in catalog.get(t, []):
                cols.add(t + "." + w)
    return cols


def derive_gold(db, sql, catalog):
    """gold_tables in first-reference order and gold_columns from the verbose plan of sql."""
    plan = json.loads("\n".join(r[0] for r in db.query("EXPLAIN (VERBOSE, FORMAT JSON) " + sql)))[0]["Plan"]
    aliases = {}      # plan alias -> schema.table
    exprs = []        # expression strings that reference alias.column

    def walk(node, has_parent):
        rel = node.get("Relation Name")
        if rel:
            aliases[node["Alias"]] = node["Schema"] + "." + rel
        for field in EXPR_FIELDS:
            if field not in node:
                continue
            # A scan below another node may emit every column of its table (PostgreSQL's physical
            # target list); the nodes above name the columns they really use, so skip that list.
            if field == "Output" and rel and has_parent:
                continue
            v = node[field]
            exprs.extend(v if isinstance(v, list) else [v])
        for child in node.get("Plans", []):
            walk(child, True)

    walk(plan, False)
    plan_tables = set(aliases.values())
    text_tables = tables_in_text(sql)
    problems = []
    if set(text_tables) != plan_tables:
        problems.append("tables named in the SQL %s differ from the plan's %s" % (text_tables, sorted(plan_tables)))
    columns = set()
    for e in exprs:
        # strip string literals so words inside quotes are not taken for columns
        e = re.sub(r"'(?:[^']|'')*'", "''", e)
        for alias, col in re.findall(r'(?<![\w."])("?[A-Za-z_][\w$]*"?)\.("?[A-Za-z_][\w$]*"?)', e):
            alias, col = alias.strip('"'), col.strip('"')
            if alias in aliases:
                columns.add((aliases[alias], col))
        # With a single relation in the plan, EXPLAIN prints its columns without a prefix.
        if len(aliases) == 1:
            (table,) = aliases.values()
            for col in re.findall(r'(?<![\w.:"])"?([A-Za-z_][\w$]*)"?(?![\w.(])', e):
                if col in catalog.get(table, []):
                    columns.add((table, col))
    gold_tables = [t for t in text_tables if t in plan_tables]
    order = {t: i for i, t in enumerate(gold_tables)}
    gold_columns = []
    for table, col in sorted(columns, key=lambda tc: (order.get(tc[0], 99), catalog.get(tc[0], []).index(tc[1])
                                                      if tc[1] in catalog.get(tc[0], []) else 999)):
        gold_columns.append(table + "." + col)
    return gold_tables, gold_columns, problems


def read_src(path):
    """questions.src: a line '? question' starts an item, the following lines up to a blank line are its SQL."""
    items, cur = [], None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("#") and cur is None:
                continue
            if line.startswith("? "):
                if cur:
                    items.append(cur)
                cur = {"question": line[2:].strip(), "sql": []}
            elif line.strip() == "":
                if cur:
                    items.append(cur)
                cur = None
            elif cur is not None:
                cur["sql"].append(line)
            else:
                raise SystemExit("%s: SQL line outside an item: %r" % (path, line))
    if cur:
        items.append(cur)
    return [(it["question"], clean_sql("\n".join(it["sql"]))) for it in items]


def read_offtopic_src(path):
    """offtopic.src: one line per question, '[category] question'."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r"\[([a-z_]+)\] (.+)$", line)
            if not m or m.group(1) not in OFFTOPIC_CATEGORIES:
                raise SystemExit("%s:%d: expected '[category] question' with a known category: %r" % (path, n, line))
            out.append((m.group(1), m.group(2)))
    return out


def row_count(db, sql):
    return int(db.query("SELECT count(*) FROM (\n" + sql + "\n) AS q")[0][0])


def verify_question(db, catalog, q):
    """Problems of one in-scope question (empty when it is right); also returns its row count."""
    problems = []
    sql = q["gold_sql"]
    try:
        rows = row_count(db, sql)
    except RuntimeError as e:
        return ["gold SQL fails: " + str(e).splitlines()[0]], None
    tables, columns, p = derive_gold(db, sql, catalog)
    problems += p
    if q["gold_tables"] != tables:
        problems.append("gold_tables %s, plan says %s" % (q["gold_tables"], tables))
    if q["gold_columns"] != columns:
        problems.append("gold_columns %s, plan says %s" % (q["gold_columns"], columns))
    text_cols = columns_from_text(sql, catalog, q["gold_tables"])
    if text_cols != set(columns):
        problems.append("columns read from the SQL text differ from the plan's: text only %s, plan only %s" % (
            sorted(text_cols - set(columns)), sorted(set(columns) - text_cols)))
    if not 1 <= len(q["gold_tables"]) <= 5:
        problems.append("%d gold tables, expected 1 to 5" % len(q["gold_tables"]))
    lower_sql = sql.lower()
    for t in q["gold_tables"]:
        if t not in catalog:
            problems.append("gold table %s does not exist" % t)
        if t not in lower_sql:
            problems.append("gold table %s is not named in the SQL" % t)
    for c in q["gold_columns"]:
        table, col = c.rsplit(".", 1)
        if col == "*" or col not in catalog.get(table, []):
            problems.append("gold column %s is not a column of %s" % (c, table))
        if table not in q["gold_tables"]:
            problems.append("gold column %s: its table is not a gold table" % c)
        if not re.search(r"\b" + re.escape(col) + r"\b", lower_sql):
            problems.append("gold column %s is not named in the SQL" % c)
    words = set(re.findall(r"[a-z0-9]+(?:_[a-z0-9]+)+", q["question"].lower()))
    idents = {t.split(".")[1] for t in catalog} | {c for cs in catalog.values() for c in cs}
    leaked = sorted(w for w in words if w in idents)
    if leaked:
        problems.append("question names identifiers verbatim: %s" % leaked)
    if re.search(r"\b(" + "|".join(MODULES) + r")\.[a-z_]+", q["question"]):
        problems.append("question names a schema-qualified table")
    return problems, rows


def names_a_gold_table(q):
    """True when the question says a gold table's name as plain words, singular or plural."""
    text = q["question"].lower()
    for t in q["gold_tables"]:
        words = t.split(".")[1].replace("_", " ")
        forms = {words, words[:-3] + "y" if words.endswith("ies") else words[:-1] if words.endswith("s") else words}
        if any(re.search(r"\b" + re.escape(f) + r"\b", text) for f in forms):
            return True
    return False


def stats(questions, offtopic, row_counts):
    n = len(questions)
    out = ["in-scope questions: %d" % n]
    dist = collections.Counter(len(q["gold_tables"]) for q in questions)
    out.append("gold tables per question: " + ", ".join(
        "%d: %d (%.0f%%)" % (k, dist[k], 100.0 * dist[k] / n) for k in sorted(dist)))
    out.append("mean gold tables %.2f, mean gold columns %.2f" % (
        sum(len(q["gold_tables"]) for q in questions) / n, sum(len(q["gold_columns"]) for q in questions) / n))
    cross = sum(1 for q in questions if len({t.split(".")[0] for t in q["gold_tables"]}) > 1)
    out.append("across modules: %d (%.0f%%)" % (cross, 100.0 * cross / n))
    per_module = collections.Counter(m for q in questions for m in {t.split(".")[0] for t in q["gold_tables"]})
    out.append("questions touching each module: " + ", ".join("%s %d" % (m, per_module[m]) for m in MODULES))
    single = collections.Counter(next(iter(ms)) for ms in ({t.split(".")[0] for t in q["gold_tables"]} for q in questions)
                                 if len(ms) == 1)
    out.append("questions within one module: " + ", ".join("%s %d" % (m, single[m]) for m in MODULES))
    lengths = sorted(len(q["question"].split()) for q in questions)
    out.append("question length in words: min %d, median %d, max %d" % (lengths[0], lengths[len(lengths) // 2], lengths[-1]))
    named = sum(1 for q in questions if names_a_gold_table(q))
    out.append("questions naming a gold table in plain words (e.g. 'customers'): %d (%.0f%%); "
               "the rest use only synonyms or paraphrase" % (named, 100.0 * named / n))
    used = collections.Counter(t for q in questions for t in q["gold_tables"])
    out.append("distinct gold tables: %d" % len(used))
    if row_counts:
        empty = sum(1 for r in row_counts if r == 0)
        out.append("gold SQL run: %d, returning rows: %d, empty results: %d, rows total: %d" % (
            len(row_counts), len(row_counts) - empty, empty, sum(row_counts)))
    cats = collections.Counter(q["category"] for q in offtopic)
    out.append("off-topic questions: %d (%s)" % (len(offtopic), ", ".join(
        "%s %d" % (c, cats[c]) for c in OFFTOPIC_CATEGORIES)))
    return out, used


def build_questions(db, args, catalog, src, prefix):
    """In-scope rows built from (question, sql) pairs, ids prefix + NNN; returns rows, problems, row counts."""
    questions, failures, rows = [], 0, []
    for i, (question, sql) in enumerate(src, 1):
        q = {"id": "%s%03d" % (prefix, i), "db_id": "erp", "question": question, "gold_sql": sql}
        try:
            tables, columns, problems = derive_gold(db, sql, catalog)
        except RuntimeError as e:
            print("%s: gold SQL fails: %s\n  %s" % (q["id"], str(e).splitlines()[0], question), file=sys.stderr)
            failures += 1
            continue
        q["gold_tables"], q["gold_columns"] = tables, columns
        problems, r = verify_question(db, catalog, q)
        for p in problems:
            print("%s: %s\n  %s" % (q["id"], p, question), file=sys.stderr)
        failures += bool(problems)
        rows.append(r)
        if args.verbose:
            print("%s rows=%s tables=%s" % (q["id"], r, tables))
        questions.append(q)
    return questions, failures, rows


def read_jsonl(name):
    with open(os.path.join(BENCH, name), encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def write_jsonl(name, rows):
    with open(os.path.join(BENCH, name), "w", encoding="utf-8") as f:
        for q in rows:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")


def duplicate_questions(rows, others=()):
    """Prints each question said twice in rows, or already said in others; returns how many."""
    seen = {q["question"].lower() for q in others}
    dup = [k for k, v in collections.Counter(q["question"].lower() for q in rows).items() if v > 1 or k in seen]
    for d in dup:
        print("duplicate question: %r" % d, file=sys.stderr)
    return len(dup)


def build(db, args):
    catalog = db.columns()
    src = read_src(os.path.join(HERE, "questions.src"))
    questions, failures, rows = build_questions(db, args, catalog, src, "erp-")
    off = []
    for i, (cat, text) in enumerate(read_offtopic_src(os.path.join(HERE, "offtopic.src")), 1):
        off.append({"id": "erp-off-%03d" % i, "db_id": "erp", "question": text, "gold_sql": None,
                    "gold_tables": [], "gold_columns": [], "category": cat})
    failures += duplicate_questions(questions + off)
    write_jsonl("questions.jsonl", questions)
    write_jsonl("offtopic.jsonl", off)
    lines, used = stats(questions, off, rows)
    print("\n".join(lines))
    print("tables never gold: " + ", ".join(t for t in catalog if t not in used))
    failures += build_values(db, args, catalog, questions + off)
    others = questions + off + read_jsonl(VALUES_JSONL)
    for held in HELD_OUT_SETS:
        failures += build_holdout(db, args, catalog, others, held)
        others = others + read_jsonl(held.jsonl)
    if failures:
        print("%d problems" % failures, file=sys.stderr)
        return 1
    return 0


VALUES_SRC, VALUES_JSONL, VALUES_PREFIX = "values.src", "values.jsonl", "erp-val-"


def build_values(db, args, catalog, others):
    """values.src -> ../values.jsonl (questions that name data values); returns the number of problems."""
    src = read_src(os.path.join(HERE, VALUES_SRC))
    questions, failures, rows = build_questions(db, args, catalog, src, VALUES_PREFIX)
    failures += duplicate_questions(questions, others)
    write_jsonl(VALUES_JSONL, questions)
    lines, used = stats(questions, [], rows)
    print("\n%s:" % VALUES_JSONL)
    print("\n".join(lines[:-1]))
    print("tables never gold: " + ", ".join(t for t in catalog if t not in used))
    return failures


def check_questions(db, catalog, questions):
    """Problems of committed in-scope rows (printed); returns the number of rows with problems and row counts."""
    failures, rows = 0, []
    keys = ["id", "db_id", "question", "gold_sql", "gold_tables", "gold_columns"]
    for q in questions:
        problems = []
        if list(q.keys()) != keys:
            problems.append("keys %s, expected %s" % (list(q.keys()), keys))
        p, r = verify_question(db, catalog, q)
        problems += p
        if r is not None:
            rows.append(r)
        for p in problems:
            print("%s: %s" % (q["id"], p), file=sys.stderr)
        failures += bool(problems)
    return failures, rows


def check_values(db, catalog, other_ids):
    """Checks ../values.jsonl with the rules of questions.jsonl and prints its counts; returns its problems."""
    questions = read_jsonl(VALUES_JSONL)
    failures, rows = check_questions(db, catalog, questions)
    ids = [q["id"] for q in questions]
    bad = [i for i in ids if not re.fullmatch(re.escape(VALUES_PREFIX) + r"\d{3}", i)]
    if bad:
        print("values ids without the prefix %s: %s" % (VALUES_PREFIX, bad), file=sys.stderr)
        failures += 1
    if len(ids) != len(set(ids)) or set(ids) & set(other_ids):
        print("duplicate ids in %s" % VALUES_JSONL, file=sys.stderr)
        failures += 1
    lines, _ = stats(questions, [], rows)
    print("\n%s:" % VALUES_JSONL)
    print("\n".join(lines[:-1]))
    print("%s: %s (%d questions with problems)" % (VALUES_JSONL, "FAILED" if failures else "ok", failures))
    return failures


# Held-out sets, each written blind: in-scope source, off-topic source, output file and the two id prefixes.
# build writes and check checks them in this order, after values.jsonl.
HeldOut = collections.namedtuple("HeldOut", "src offtopic_src jsonl prefix offtopic_prefix")
HELD_OUT_SETS = (
    HeldOut("holdout.src", "holdout_offtopic.src", "holdout.jsonl", "erp-hold-", "erp-hold-off-"),
    HeldOut("holdout2.src", "holdout2_offtopic.src", "holdout2.jsonl", "erp-h2-", "erp-h2-off-"),
    HeldOut("holdout3.src", "holdout3_offtopic.src", "holdout3.jsonl", "erp-h3-", "erp-h3-off-"),
    HeldOut("holdout4.src", "holdout4_offtopic.src", "holdout4.jsonl", "erp-h4-", "erp-h4-off-"),
    HeldOut("holdout5.src", "holdout5_offtopic.src", "holdout5.jsonl", "erp-h5-", "erp-h5-off-"),
)


def malformed_offtopic(q):
    return (q.get("gold_sql") is not None or q.get("gold_tables") != [] or q.get("gold_columns") != []
            or q.get("category") not in OFFTOPIC_CATEGORIES or not q.get("question") or q.get("db_id") != "erp")


def build_holdout(db, args, catalog, others, held):
    """held.src + held.offtopic_src -> ../held.jsonl (a held-out set); returns the number of problems."""
    src = read_src(os.path.join(HERE, held.src))
    questions, failures, rows = build_questions(db, args, catalog, src, held.prefix)
    off = []
    for i, (cat, text) in enumerate(read_offtopic_src(os.path.join(HERE, held.offtopic_src)), 1):
        off.append({"id": "%s%03d" % (held.offtopic_prefix, i), "db_id": "erp", "question": text, "gold_sql": None,
                    "gold_tables": [], "gold_columns": [], "category": cat})
    failures += duplicate_questions(questions + off, others)
    write_jsonl(held.jsonl, questions + off)
    lines, used = stats(questions, off, rows)
    print("\n%s:" % held.jsonl)
    print("\n".join(lines))
    print("tables never gold: " + ", ".join(t for t in catalog if t not in used))
    return failures


def check_holdout(db, catalog, other_ids, held):
    """Checks ../held.jsonl (a held-out set) with the rules of questions.jsonl and offtopic.jsonl and prints its
    counts; returns its problems."""
    rows_in = read_jsonl(held.jsonl)
    questions = [q for q in rows_in if q.get("gold_sql") is not None]
    offtopic = [q for q in rows_in if q.get("gold_sql") is None]
    failures, rows = check_questions(db, catalog, questions)
    if rows_in != questions + offtopic:
        print("%s: in-scope rows must come before the off-topic rows" % held.jsonl, file=sys.stderr)
        failures += 1
    for q in offtopic:
        if malformed_offtopic(q):
            print("%s: malformed off-topic row" % q.get("id"), file=sys.stderr)
            failures += 1
    bad = [q["id"] for q in questions if not re.fullmatch(re.escape(held.prefix) + r"\d{3}", q["id"])]
    bad += [q.get("id") for q in offtopic if not re.fullmatch(re.escape(held.offtopic_prefix) + r"\d{3}", q.get("id") or "")]
    if bad:
        print("%s: ids without the prefix %s / %s: %s" % (held.jsonl, held.prefix, held.offtopic_prefix, bad),
              file=sys.stderr)
        failures += 1
    ids = [q.get("id") for q in rows_in]
    if len(ids) != len(set(ids)) or set(ids) & set(other_ids):
        print("duplicate ids in %s" % held.jsonl, file=sys.stderr)
        failures += 1
    lines, _ = stats(questions, offtopic, rows)
    print("\n%s:" % held.jsonl)
    print("\n".join(lines))
    print("%s: %s (%d questions with problems)" % (held.jsonl, "FAILED" if failures else "ok", failures))
    return failures


def check(db, args):
    catalog = db.columns()
    questions = read_jsonl("questions.jsonl")
    offtopic = read_jsonl("offtopic.jsonl")
    failures, rows = check_questions(db, catalog, questions)
    for q in offtopic:
        if malformed_offtopic(q):
            print("%s: malformed off-topic row" % q.get("id"), file=sys.stderr)
            failures += 1
    ids = [q["id"] for q in questions + offtopic]
    if len(ids) != len(set(ids)):
        print("duplicate ids", file=sys.stderr)
        failures += 1
    lines, _ = stats(questions, offtopic, rows)
    print("\n".join(lines))
    failures += check_values(db, catalog, ids)
    ids = ids + [q["id"] for q in read_jsonl(VALUES_JSONL)]
    for held in HELD_OUT_SETS:
        failures += check_holdout(db, catalog, ids, held)
        ids = ids + [q.get("id") for q in read_jsonl(held.jsonl)]
    print("check: %s (%d questions with problems)" % ("FAILED" if failures else "ok", failures))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["build", "check"])
    ap.add_argument("--url", help="jdbc:postgresql://HOST:PORT/DB?user=U or postgresql://U@HOST:PORT/DB")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    db = Db(args.url)
    sys.exit(build(db, args) if args.command == "build" else check(db, args))


if __name__ == "__main__":
    main()
