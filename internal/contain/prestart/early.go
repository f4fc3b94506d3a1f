package prestart

// Wanted reports whether askbridge's arguments (its name left out) run the
// relay with an agent to contain: flags first (a subcommand's name is
// not one), an agent after "--", and no --contain off. A wrong guess
// costs an init that ends unused, never the agent's containment:
// package contain decides that once askbridge has read its flags.
func Wanted(args []string) bool {
	if len(args) == 0 || len(args[0]) == 0 || args[0][0] != '-' {
		return false
	}
	for i, a := range args {
		if a == "--" {
			return i+1 < len(args)
		}
		name, value, hasValue := flag(a)
		if name != "contain" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		if value == "off" {
			return false
		}
	}
	return false
}

// flag splits -name=value or --name=value (package strings is not
// imported: see doc.go).
func flag(a string) (name, value string, hasValue bool) {
	for len(a) > 0 && a[0] == '-' {
		a = a[1:]
	}
	for i := 0; i < len(a); i++ {
		if a[i] == '=' {
			return a[:i], a[i+1:], true
		}
	}
	return a, "", false
}

// split cuts /proc/self/cmdline's NUL-ended arguments.
func split(b []byte) []string {
	var out []string
	start := 0
	for i, c := range b {
		if c == 0 {
			out = append(out, string(b[start:i]))
			start = i + 1
		}
	}
	if start < len(b) {
		out = append(out, string(b[start:]))
	}
	return out
}
