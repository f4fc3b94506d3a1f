package prompt

import (
	"slices"
	"strings"
)

// DenyMark ends the question of an approval whose "Other" denies it with a
// reason (askbridge inbox): the terminal then names that row "Deny…" and
// asks why, and the mark itself is not shown.
const DenyMark = " (Other: deny, with a reason the agent reads)"

// DenyName is the "Other" row of such an approval.
const DenyName = "Deny… (say why; the agent reads it)"

// asDenial is r with its Other row as Deny… when its question carries
// DenyMark (Request.Denial says so), the mark taken out.
func asDenial(r Request) Request {
	if !strings.Contains(r.Text, DenyMark) {
		return r
	}
	r.Text = strings.Replace(r.Text, DenyMark, "", 1)
	r.Choices = slices.Clone(r.Choices)
	for i := range r.Choices {
		if r.Choices[i].ID == otherID {
			r.Choices[i].Name = DenyName
			r.Denial = true
		}
	}
	return r
}
