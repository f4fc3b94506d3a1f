package permission

import "encoding/json"

// questionJSON is a question on the wire (the SDK-style updatedInput, the
// board's sets on the hub's link and in its history, the ask socket): the
// kind's properties as the flags they were, so the bytes are what they were
// before kinds, and a registered kind's name beside them.
type questionJSON struct {
	Question    string                `json:"question"`
	Header      string                `json:"header"`
	Options     []Option              `json:"options"`
	MultiSelect bool                  `json:"multiSelect"`
	Secret      bool                  `json:"secret,omitempty"`
	NoOther     bool                  `json:"noOther,omitempty"`
	Link        string                `json:"link,omitempty"`
	Kind        string                `json:"kind,omitempty"`
	FollowUps   map[string][]Question `json:"followUps,omitempty"`
}

// MarshalJSON writes q with its kind as flags (and a registered kind's name).
func (q Question) MarshalJSON() ([]byte, error) {
	return json.Marshal(questionJSON{Question: q.Question, Header: q.Header, Options: q.Options,
		MultiSelect: q.Kind.Many, Secret: q.Kind.Secret, NoOther: q.Kind.Fixed, Link: q.Link,
		Kind: q.Kind.Name, FollowUps: q.FollowUps})
}

// UnmarshalJSON reads q, its kind from the flags, or the table when it names
// a registered kind; a name this askbridge does not know is kept as read,
// with the properties its flags say.
func (q *Question) UnmarshalJSON(b []byte) error {
	var w questionJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*q = Question{Question: w.Question, Header: w.Header, Options: w.Options, Link: w.Link, FollowUps: w.FollowUps,
		Kind: KindFromFlags(w.Kind, w.MultiSelect, w.NoOther, w.Secret, w.Link != "")}
	return nil
}

// KindFromFlags is the kind a wire's flags and kind name say: a registered
// kind by its name, else the properties the flags set (an unknown name
// kept). The desk's wire and the inbox read a question with it.
func KindFromFlags(name string, many, fixed, secret, link bool) AnswerKind {
	if k, ok := KindNamed(name); ok {
		return k
	}
	return AnswerKind{Name: name, Many: many, Fixed: fixed, Secret: secret, Link: link}
}
