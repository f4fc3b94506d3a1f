package permission

// NoPersonSaw is what a model reads for a question its client answered by
// itself, faster than a person can read (an auto-approving client, such as
// acpx --approve-all, picks the first option of every request): that pick
// is the client's policy, not the user's choice.
const NoPersonSaw = "No person saw this question: the client answered it automatically, too fast for anyone to read it. Decide for yourself and say what you assumed, or ask the user in the chat."

// Unseen answers each question with NoPersonSaw, as typed text, which every
// asker's reply carries to the model; Source says the client answered.
func Unseen(qs []Question) Result {
	r := Result{Source: SourceClient}
	for i, q := range qs {
		r.Answers = append(r.Answers, Answered{Question: q, Answer: Answer{Other: true, Custom: NoPersonSaw}, Path: indexPath(i), Index: i})
	}
	return r
}
