package permission

import (
	"slices"
	"strconv"
)

func indexPath(i int) string { return "questions[" + strconv.Itoa(i) + "]" }

func followUpPath(parent, label string, i int) string {
	return parent + ".followUps[" + strconv.Quote(label) + "][" + strconv.Itoa(i) + "]"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
