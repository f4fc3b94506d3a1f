package permission

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
)

// FuzzAskResponses plays a client that answers each permission request
// with the next line of the input, whatever it holds, and cancels once the
// lines run out. Ask must end (no endless re-asking), never panic, and
// answer only with labels of the question asked.
//
//	go test ./permission -run '^$' -fuzz FuzzAskResponses -fuzztime 10s
func FuzzAskResponses(f *testing.F) {
	f.Add([]byte(selected("OAuth") + "\n" + selected(DoneID) + "\n" + selected("GitHub") + "\n" + selected("now")))
	f.Add([]byte(`{"outcome":{"outcome":"selected","optionId":"SAML","_meta":{"selectedOptionIds":["SAML","OAuth","__other__"],"customText":"Kerberos"}}}` + "\n" + selected("Google") + "\n" + otherWith("soon")))
	f.Add([]byte(selected("SAML") + "\n" + selected("SAML") + "\n" + cancelled))
	f.Add([]byte(selected(OtherID) + "\n" + `{"outcome":{"outcome":"selected","optionId":"later"},"_meta":{"customText":"x"}}`))
	f.Add([]byte(`{"outcome":{"outcome":"selected","optionId":"OAuth","_meta":{"selectedOptionIds":[]}}}` + "\n" + `{"outcome":null}`))

	provider := q("Which provider?", "Provider", "GitHub", "Google")
	auth := multi(q("Which auth?", "Auth", "OAuth", "SAML", "None"))
	auth.FollowUps = map[string][]Question{"OAuth": {provider}, "SAML": {chain(2)}}
	set := []Question{auth, q("Deploy?", "Deploy", "now", "later")}
	options := map[string][]string{}
	var collect func(qs []Question)
	collect = func(qs []Question) {
		for _, qq := range qs {
			for _, o := range qq.Options {
				options[qq.Question] = append(options[qq.Question], o.Label)
			}
			for _, fs := range qq.FollowUps {
				collect(fs)
			}
		}
	}
	collect(set)

	f.Fuzz(func(t *testing.T, input []byte) {
		lines := bytes.Split(input, []byte("\n"))
		asked := 0
		peer := &fakePeer{respond: func(n int, _ map[string]any) (string, error) {
			asked = n
			if n > 64 {
				return "", errors.New("asked more than 64 times: the flow does not end")
			}
			if n > len(lines) {
				return cancelled, nil
			}
			return string(lines[n-1]), nil
		}}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		res, err := Ask(ctx, peer, Request{SessionID: "s", Questions: set, Round: 1})
		if asked > 64 {
			t.Fatalf("asked %d times", asked)
		}
		if err != nil {
			return
		}
		if res.Cancelled && len(res.Answers) > 0 {
			t.Fatal("a cancelled set carries answers")
		}
		for _, a := range res.Answers {
			for _, l := range a.Answer.Labels {
				if !slices.Contains(options[a.Question.Question], l) {
					t.Fatalf("%s answered %q, not one of its options", a.Path, l)
				}
			}
		}
	})
}
