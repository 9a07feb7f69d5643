# SPDX-License-Identifier: BSD-2-Clause
# The checker behind check-layers.sh (POSIX awk: Debian's mawk runs it).
# Input lines: "F path" (every source file), "D src/folder" (every folder of
# src/), "I path:line:text" (every #include line); the table comes from -v table.

function fail(msg) {
	print msg
	nfail++
}

# unit of a file: the folder of src/ it is in, the file itself when it sits in
# src/, or the folder whose public header it is
function unit_of(path, parts, n) {
	n = split(path, parts, "/")
	if (parts[1] == "include")
		return pubof[parts[n]]
	return parts[2]
}

# the unit an include points to ("" when the include is not rperf's)
function target_of(path, inc, angle, parts, n, dir) {
	if (inc ~ /^rperf\//) {
		sub(/^rperf\//, "", inc)
		if (!(inc in pubof)) {
			fail(path ": includes <rperf/" inc ">, which is not a " \
			     "'public' line of " table)
			return ""
		}
		return pubof[inc]
	}
	if (angle)
		return ""
	dir = path
	sub(/\/[^\/]*$/, "", dir)
	if ((dir "/" inc) in isfile)
		return unit_of(dir "/" inc)
	if (("src/" inc) in isfile || (inc in generated)) {
		n = split(inc, parts, "/")
		return parts[1]
	}
	fail(path ": includes \"" inc "\", which is no file of src/ or " \
	     "include/rperf/")
	return ""
}

function layer_name(u) {
	return "layer " layer[u] " (" layerline[layer[u]] ")"
}

function add_edge(from, to, where) {
	if (!((from, to) in edge)) {
		edge[from, to] = where
		nout[from]++
		out[from, nout[from]] = to
	}
}

# every include between two folders, exceptions too (for the note on the
# circles that remain through the exceptions)
function add_any(from, to) {
	if (!((from, to) in anyedge)) {
		anyedge[from, to] = 1
		nany[from]++
		anyout[from, nany[from]] = to
	}
}

function check_include(path, lineno, inc, from, to, where, key) {
	where = path ":" lineno
	key = substr(path, 5) " " inc
	if (to != from)
		add_any(from, to)
	if (inc ~ /(_int|_priv|_internal)\.h$/ && to != from) {
		if (key in except) {
			used[key] = 1
			return
		}
		fail(where ": " from " -> " to ": \"" inc "\" is private to " to \
		     "; give " from " a public header of " to " for what it uses")
	}
	if (to == from || !(to in layer) || !(from in layer))
		return # a folder on no layer is reported once, in END
	if (layer[to] <= layer[from]) {
		if (key in except) {
			used[key] = 1
			return
		}
		if (layer[to] == layer[from])
			fail(where ": " from " -> " to ": \"" inc "\" includes a " \
			     "peer (both on " layer_name(from) ")")
		else
			fail(where ": " from " -> " to ": \"" inc "\" points up (" \
			     from " is on " layer_name(from) ", " to " on " \
			     layer_name(to) ")")
	}
	add_edge(from, to, where)
}

# depth-first search for include cycles between folders, over every include
# but the exceptions: only an include that points up (or to a peer) can close
# one, so a cycle comes with such a failure above it and names the way back
function dfs(u, i, v, k, cyc) {
	color[u] = 1
	stack[++depth] = u
	for (i = 1; i <= nout[u]; i++) {
		v = out[u, i]
		if (color[v] == 1) {
			cyc = ""
			for (k = depth; stack[k] != v; k--)
				;
			for (; k <= depth; k++)
				cyc = cyc (cyc == "" ? "" : ", ") stack[k] " -> " \
				      (k < depth ? stack[k + 1] : v) " (" \
				      edge[stack[k], k < depth ? stack[k + 1] : v] ")"
			fail("include cycle between folders: " cyc)
		} else if (color[v] == 0) {
			dfs(v)
		}
	}
	depth--
	color[u] = 2
}

# Tarjan's strongly connected components over all includes (exceptions
# too): each component of more than one folder is a circle that the
# exceptions keep; it is a note, not a failure
function scc(u, i, v, comp, n) {
	sidx[u] = slow[u] = ++scount
	sstack[++sdepth] = u
	onstack[u] = 1
	for (i = 1; i <= nany[u]; i++) {
		v = anyout[u, i]
		if (!(v in sidx)) {
			scc(v)
			if (slow[v] < slow[u])
				slow[u] = slow[v]
		} else if (onstack[v] && sidx[v] < slow[u]) {
			slow[u] = sidx[v]
		}
	}
	if (slow[u] != sidx[u])
		return
	comp = ""
	n = 0
	do {
		v = sstack[sdepth--]
		onstack[v] = 0
		comp = v (comp == "" ? "" : " ") comp
		n++
	} while (v != u)
	if (n > 1)
		note[++nnote] = "note: through the exceptions, " n " folders " \
				"still include each other in a circle: " comp
}

BEGIN {
	nlayer = 0
	while ((getline ln < table) > 0) {
		tno++
		sub(/#.*/, "", ln)
		gsub(/^[ \t]+|[ \t]+$/, "", ln)
		if (ln == "")
			continue
		n = split(ln, w, /[ \t]+/)
		if (w[1] == "layer") {
			nlayer++
			layerline[nlayer] = ""
			for (i = 2; i <= n; i++) {
				if (w[i] in layer)
					fail(table ":" tno ": " w[i] " is on two " \
					     "layers")
				layer[w[i]] = nlayer
				order[++nunit] = w[i]
				layerline[nlayer] = layerline[nlayer] \
					(i > 2 ? " " : "") w[i]
			}
		} else if (w[1] == "public" && n == 3) {
			pubof[w[2]] = w[3]
		} else if (w[1] == "generated" && n == 2) {
			generated[w[2]] = 1
		} else if (w[1] == "except" && n >= 4) {
			key = w[2] " " w[3]
			except[key] = tno
			keyat[tno] = key
			why[key] = w[4]
			for (i = 5; i <= n; i++)
				why[key] = why[key] " " w[i]
		} else {
			fail(table ":" tno ": cannot read this line")
		}
	}
	close(table)
}

$1 == "F" {
	isfile[$2] = 1
	n = split($2, w, "/")
	if (w[1] == "include" && !(w[n] in pubof))
		fail($2 ": the public header is on no 'public' line of " table)
	else if (w[1] == "src" && n == 2 && $2 ~ /\.[ch]$/ && !(w[2] in layer))
		fail($2 ": the file is on no layer of " table \
		     ": add it to the line of its layer")
	next
}

$1 == "D" {
	u = substr($2, 5)
	folder[u] = 1
	if (!(u in layer))
		fail("src/" u ": the folder is on no layer of " table \
		     ": add it to the line of its layer")
	next
}

$1 == "I" {
	rest = substr($0, 3)
	path = rest
	sub(/:.*/, "", path)
	rest = substr(rest, length(path) + 2)
	lineno = rest
	sub(/:.*/, "", lineno)
	text = substr(rest, length(lineno) + 2)
	angle = text ~ /include[ \t]*</
	inc = text
	sub(/^[^"<]*["<]/, "", inc)
	sub(/[">].*$/, "", inc)
	from = unit_of(path)
	if (from == "")
		next # a public header on no 'public' line: reported above
	to = target_of(path, inc, angle)
	if (to == "")
		next
	nincl++
	if (to != from)
		nacross++
	check_include(path, lineno, inc, from, to)
	next
}

END {
	for (u in layer)
		if (!(u in folder) && !(("src/" u) in isfile) && !(u in generated))
			fail(table ": " u " is on a layer but is no folder or " \
			     "file of src/: delete it from the table")
	for (key in except)
		if (!(key in used)) {
			split(key, w, " ")
			fail(table ":" except[key] ": the exception for src/" \
			     w[1] " including \"" w[2] "\" matches no include " \
			     "that needs it any more: delete the line")
		}
	for (i = 1; i <= nunit; i++)
		if (!color[order[i]])
			dfs(order[i])
	for (i = 1; i <= nunit; i++)
		if (!(order[i] in sidx))
			scc(order[i])
	nexc = 0
	for (i = 1; i <= tno; i++)
		if ((i in keyat) && (keyat[i] in used)) {
			nexc++
			split(keyat[i], w, " ")
			print "exception: src/" w[1] " includes \"" w[2] "\": " \
			      why[keyat[i]]
		}
	if (nfail) {
		print "layers: " nfail " problem(s); the table is " table
		exit 1
	}
	for (i = 1; i <= nnote; i++)
		print note[i]
	printf "layers: %d includes of rperf's headers, %d between folders, " \
	       "follow %s (%d layers, %d exception(s))\n", nincl, nacross, \
	       table, nlayer, nexc
	exit 0
}
