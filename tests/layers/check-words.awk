# SPDX-License-Identifier: BSD-2-Clause
# The checker behind check-words.sh (POSIX awk: Debian's mawk runs it).
# Input: "F path" for every file of the tree (to resolve names), then the C
# files' lines, each file announced by "\001C path". Variables: external (file
# names of other projects that comments cite), legacy (path:phrase pairs,
# separated by '|', that are known and named).

function fail(msg) {
	print msg
	nfail++
}

# does a file named @t exist: a path from the top, from src/, include/ or
# tests/, or the base name of any file of the tree
function exists(t) {
	if (t in isfile || ("src/" t) in isfile || ("include/" t) in isfile ||
	    ("tests/" t) in isfile)
		return 1
	return index(t, "/") == 0 && (t in isbase)
}

# file names in the comment text @s of @path:@ln
function comment_files(s, ln, t, before) {
	while (match(s, /[A-Za-z0-9_\/+-]*[A-Za-z0-9_]\.(c|h|sh|cmake|md)/)) {
		t = substr(s, RSTART, RLENGTH)
		before = RSTART > 1 ? substr(s, RSTART - 1, 1) : ""
		s = substr(s, RSTART + RLENGTH)
		if (s ~ /^[A-Za-z0-9_]/ || before ~ /[A-Za-z0-9_.<-]/)
			continue # part of a longer word, or a <system/header.h>
		if (t in ext || exists(t))
			continue
		fail(path ":" ln ": the comment names " t ", which is no file " \
		     "of this tree")
	}
}

# development-process words in comment or string text @s
function process_words(s, ln, what, l, i, p) {
	l = tolower(s)
	for (i = 1; i <= nwords; i++)
		if (match(l, words[i])) {
			p = substr(s, RSTART, RLENGTH)
			sub(/[^0-9a-z]$/, "", p)
			if ((path ":" tolower(p)) in leg) {
				legused[path ":" tolower(p)] = 1
				continue
			}
			fail(path ":" ln ": \"" p "\" in " what " tells how rperf " \
			     "was developed, not what it does")
		}
}

# one line of C: the comments and string literals in it, carrying the
# state (inside a /* comment or not) from line to line
function scan(line, ln, out, c, q, j) {
	while (line != "") {
		if (incomment) {
			j = index(line, "*/")
			c = j ? substr(line, 1, j - 1) : line
			comment_files(c, ln)
			process_words(c, ln, "a comment")
			if (!j)
				return
			incomment = 0
			line = substr(line, j + 2)
			continue
		}
		if (!match(line, /\/\*|\/\/|"|'/))
			return
		q = substr(line, RSTART, RLENGTH)
		line = substr(line, RSTART + RLENGTH)
		if (q == "/*") {
			incomment = 1
		} else if (q == "//") {
			comment_files(line, ln)
			process_words(line, ln, "a comment")
			return
		} else { # a literal: up to the closing quote, \x escapes skipped
			out = ""
			while (line != "" && substr(line, 1, 1) != q) {
				c = substr(line, 1, 1) == "\\" ? 2 : 1
				out = out substr(line, 1, c)
				line = substr(line, c + 1)
			}
			line = substr(line, 2)
			if (q == "\"" && !inclusion)
				process_words(out, ln, "a string")
		}
	}
}

BEGIN {
	n = split(external, w, " ")
	for (i = 1; i <= n; i++)
		ext[w[i]] = 1
	n = split(legacy, w, "|")
	for (i = 1; i <= n; i++)
		if (w[i] != "")
			leg[tolower(w[i])] = 1
	words[++nwords] = "the brief"
	words[++nwords] = "session notes?"
	# a tracker's number ("issue 14's", "(issue 11)"), not the verb
	# ("the LSG may issue 2 reads"); a reference paper's number (seed 002),
	# not a random generator's seed
	words[++nwords] = "issue [0-9]+([^0-9a-z ]|$)"
	words[++nwords] = "seed 0[0-9]+"
	words[++nwords] = "integrator"
}

$1 == "F" && !started {
	isfile[$2] = 1
	b = $2
	sub(/.*\//, "", b)
	isbase[b] = 1
	next
}

$1 == "\001C" {
	started = 1
	path = $2
	incomment = 0
	ln = 0
	nfiles++
	next
}

{
	ln++
	inclusion = $0 ~ /^[ \t]*#[ \t]*include/
	scan($0, ln)
}

END {
	for (k in leg)
		if (!(k in legused))
			fail("check-words.sh: the legacy entry \"" k "\" matches " \
			     "nothing any more: delete it")
	if (nfail) {
		print "words: " nfail " problem(s) in " nfiles " files"
		exit 1
	}
	print "words: the comments of " nfiles " files name files that " \
	      "exist; no development-process words in comments or strings"
}
