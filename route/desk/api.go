package desk

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// wireQuestion is a question as OpenCode's routes show it, with what
// askbridge adds: the follow-ups each option brings, and where the
// question sits in its set.
type wireQuestion struct {
	Question  string                    `json:"question"`
	Header    string                    `json:"header"`
	Options   []permission.Option       `json:"options"`
	Multiple  bool                      `json:"multiple"`
	FollowUps map[string][]wireQuestion `json:"followUps,omitempty"`
	Path      string                    `json:"path,omitempty"`
	// Secret: what is typed is read by the agent alone; the desk shows
	// permission.SecretText for it afterwards, and the page hides the typing.
	Secret bool `json:"secret,omitempty"`
	// Custom is false when the asker cannot take typed text (a Fixed
	// permission.AnswerKind), as in OpenCode's routes: the page offers no
	// "Other" input.
	Custom *bool `json:"custom,omitempty"`
	// Link is a page the question asks the user to open
	// (permission.Question.Link): the page shows it in full as a link.
	Link string `json:"link,omitempty"`
	// Kind names a registered kind (permission.RegisterKind); Input and
	// Hint are what its typed text is (an input type, "a number"), for
	// the page's field. All three are empty for the flags' kinds.
	Kind  string `json:"kind,omitempty"`
	Input string `json:"input,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

// wireAnswer is an answer a set already has, while its follow-ups are asked.
type wireAnswer struct {
	Path     string `json:"path"`
	Header   string `json:"header"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// wirePending is a pending request as GET /question lists it. Questions
// are the ones to answer now: the set's own, then (step 1 on) the
// follow-ups its answers brought.
type wirePending struct {
	ID string `json:"id"`
	// Kind is "question", or "approval" for the agent's own permission
	// request (askbridge --approvals): one question whose options are the
	// agent's options by name, and Approval says what will run.
	Kind      permission.Kind      `json:"kind"`
	Approval  *permission.Approval `json:"approval,omitempty"`
	SessionID string               `json:"sessionID"`
	Questions []wireQuestion       `json:"questions"`
	Tool      struct {
		MessageID string `json:"messageID"`
		CallID    string `json:"callID"`
	} `json:"tool"`
	Round    int          `json:"round"`
	Step     int          `json:"step"`
	Answered []wireAnswer `json:"answered,omitempty"`
	// Deadline is when the set times out (--question-timeout), later each
	// time the desk holds it; RemainingMs is the time left when this was
	// written, for a page to count down by whatever its clock says.
	Deadline    *time.Time `json:"deadline,omitempty"`
	RemainingMs *int64     `json:"remainingMs,omitempty"`
	// WaitedMs is how long the set has waited for an answer when this was
	// written, on the same terms; the hub's page shows it with the set's
	// group. Like Instance and CWD, only for a set with an origin
	// (Pending.Origin): a board told nothing lists sets as it did.
	WaitedMs *int64 `json:"waitedMs,omitempty"`
	// Instance and CWD say where the set comes from (Pending.Origin).
	Instance *permission.Origin `json:"instance,omitempty"`
	CWD      string             `json:"cwd,omitempty"`
	Claim    *wireClaim         `json:"claim,omitempty"` // the device answering it now (claim.go)
	// Note is what the card says beside the questions: the agent stopped
	// waiting for the set, which stays answerable (permission.Board.Note).
	Note string `json:"note,omitempty"`
}

func toWireQuestion(q permission.Question, path string) wireQuestion {
	k := q.Kind
	w := wireQuestion{Question: q.Question, Header: q.Header, Options: q.Options, Multiple: k.Many, Path: path, Secret: k.Secret, Link: q.Link,
		Kind: k.Name, Input: k.Input, Hint: k.Hint}
	if !k.Typed() {
		w.Custom = new(false)
	}
	if w.Options == nil {
		w.Options = []permission.Option{}
	}
	for label, fs := range q.FollowUps {
		if w.FollowUps == nil {
			w.FollowUps = map[string][]wireQuestion{}
		}
		for _, f := range fs {
			w.FollowUps[label] = append(w.FollowUps[label], toWireQuestion(f, ""))
		}
	}
	return w
}

func toWire(p permission.Pending) wirePending {
	w := wirePending{ID: p.ID, Kind: p.Kind, Approval: p.Approval, SessionID: p.SessionID, Round: p.Round, Step: p.Step, Questions: []wireQuestion{}}
	if w.Kind == "" {
		w.Kind = permission.KindQuestion
	}
	w.Tool.CallID = p.ToolCallID
	w.Claim = toWireClaim(p.Claim)
	w.Note = p.Note
	if w.Deadline = p.Deadline; p.Deadline != nil && p.State == permission.StatePending {
		left := remainingMs(*p.Deadline)
		w.RemainingMs = &left
	}
	for _, a := range p.Asking {
		w.Questions = append(w.Questions, toWireQuestion(a.Question, a.Path))
	}
	for _, a := range p.Answered {
		w.Answered = append(w.Answered, wireAnswer{Path: a.Path, Header: a.Question.Header, Question: a.Question.Question, Answer: a.Answer.Text()})
	}
	return w
}

// toWire is p as the desk shows it, with its origin when there is one.
func (s *Server) toWire(p permission.Pending) wirePending {
	w := toWire(p)
	if w.Instance, w.CWD = s.origin(p); w.Instance != nil || w.CWD != "" {
		if p.State == permission.StatePending && !p.Asked.IsZero() {
			waited := time.Since(p.Asked).Milliseconds()
			w.WaitedMs = &waited
		}
	}
	return w
}

// origin is where p comes from, as the board says (Pending.Origin), and
// its folder; nil and "" for a set of a board told nothing.
func (s *Server) origin(p permission.Pending) (*permission.Origin, string) {
	if p.Origin == nil {
		return nil, ""
	}
	return p.Origin, p.Origin.Folder
}

func (s *Server) listQuestions(w http.ResponseWriter, r *http.Request) {
	out := []wirePending{}
	for _, p := range s.board.List() {
		out = append(out, s.toWire(p))
	}
	writeJSON(w, http.StatusOK, out)
}

// reply: {"answers":[["label"],["a","b"]], "step":0}, one array per
// question listed; step, optional, is the step those questions belong to.
func (s *Server) reply(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Answers [][]string `json:"answers"`
		Step    *int       `json:"step"`
		// Assertion: the passkey's, which an approval needs (presence.go).
		Assertion json.RawMessage `json:"assertion"`
		Reason    string          `json:"reason"` // with a reject option: why not, for the model ("Deny…")
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if _, err := permission.Typed(body.Reason); err != nil {
		// The board refuses it too, as an error of its own: say here
		// it is the sender's, and the limit.
		writeError(w, http.StatusBadRequest, "reason: "+err.Error())
		return
	}
	s.answerWhy(w, r, r.PathValue("id"), "", body.Step, body.Answers, true, body.Assertion, body.Reason)
}

func (s *Server) reject(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	b := by(r, "")
	b.Source = s.source(r)
	if err := s.board.Withdraw(id, "rejected at the "+s.pageName(), b); err != nil {
		s.boardError(w, id, err)
		return
	}
	s.logger.Info("desk: question rejected", "id", id)
	writeJSON(w, http.StatusOK, true)
}

// taskAnswer: {"session_id","question_id","answer": "label" | ["a","b"] |
// "free text", "step"} for a set, or a step of follow-ups, of one question.
func (s *Server) taskAnswer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		SessionID  string          `json:"session_id"`
		QuestionID string          `json:"question_id"`
		Answer     json.RawMessage `json:"answer"`
		Step       *int            `json:"step"`
		Assertion  json.RawMessage `json:"assertion"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	var list []string
	var one string
	switch {
	case json.Unmarshal(body.Answer, &one) == nil:
		list = []string{one}
	case json.Unmarshal(body.Answer, &list) == nil:
	default:
		writeError(w, http.StatusBadRequest, `answer: want a label, a list of labels, or free text`)
		return
	}
	if _, known := s.board.History(body.SessionID); !known {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no session %q", body.SessionID))
		return
	}
	s.answer(w, r, body.QuestionID, body.SessionID, body.Step, [][]string{list}, false, body.Assertion)
}

// maxBody bounds a request's body (docs/security.md): the largest the page
// sends, a passkey's attestation, is a few KiB.
const maxBody = 1 << 20

// decodeBody reads r's JSON body into v; one over maxBody is refused,
// naming the limit, not cut short into invalid JSON.
func decodeBody(r *http.Request, v any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("reading the body: %v", err)
	}
	if len(b) > maxBody {
		return fmt.Errorf("body: over %d bytes; the limit is 1 MiB", maxBody)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("body: invalid JSON: %v", err)
	}
	return nil
}
