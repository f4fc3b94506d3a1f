package nextprompt

import (
	"github.com/askbridge/askbridge/internal/notes"
)

// What a session's next prompt gets outlives this process. acpx starts a
// new askbridge for every prompt (initialize, then session/load), and an
// editor may restart its agent: a note or late answer kept only in memory
// would die with the askbridge that took it. So each is also written to
// the notes store (Config.Notes), and the next session/prompt of the
// session, in whichever askbridge serves it, takes the store's notes of
// that session along with its own. A file is delivered by whoever removes
// it first, so two askbridges serving one session never both hand it on.
// A late answer to a secret question is kept in memory only: the store
// is a file, and a secret is never written.

// keep makes a text for session's next prompt, written to the store too
// when there is one and persist allows.
func (q *Queue) keep(session, kind, text string, persist bool) late {
	k := late{text: text}
	if q.cfg.Notes == nil {
		return k
	}
	if !persist {
		q.cfg.Logger.Info("a late answer to a secret question is kept in memory only: it does not outlive this askbridge", "session", session)
		return k
	}
	id, err := q.cfg.Notes.Put(session, notes.Note{Kind: kind, Text: text})
	if err != nil {
		q.cfg.Logger.Warn("could not keep a note for the next prompt past this askbridge", "session", session, "err", err)
		return k
	}
	k.id = id
	return k
}

// claim keeps of ks those still this process's to deliver: kept in memory
// only, or whose file it removed now (another askbridge may have taken
// it).
func (q *Queue) claim(session string, ks []late) []late {
	out := ks[:0]
	for _, k := range ks {
		if k.id == "" || q.cfg.Notes.Claim(session, k.id) {
			out = append(out, k)
		}
	}
	if dropped := len(ks) - len(out); dropped > 0 {
		q.cfg.Logger.Info("notes for the next prompt were handed on by another askbridge serving the session", "session", session, "notes", dropped)
	}
	return out
}

// withStored claims this process's notes and late answers of session and
// adds, after them, the ones the store holds from other askbridges.
func (q *Queue) withStored(session string, ns, answers []late) ([]late, []late) {
	if q.cfg.Notes == nil {
		return ns, answers
	}
	ns, answers = q.claim(session, ns), q.claim(session, answers)
	stored := q.cfg.Notes.Take(session)
	for _, n := range stored {
		switch n.Kind {
		case notes.KindLate:
			answers = append(answers, late{text: n.Text})
		default:
			ns = append(ns, late{text: n.Text})
		}
	}
	if len(stored) > 0 {
		q.cfg.Logger.Info("notes kept for this session by an earlier askbridge go with the prompt", "session", session, "notes", len(stored))
	}
	return ns, answers
}
