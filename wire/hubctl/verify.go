package hubctl

import (
	"fmt"
	"io"
	"os"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// verify checks every record of the decisions log at path offline
// (decisions.Verify) against the passkeys of the hub's paired devices,
// names each that fails and why, and says how many verified; it is an
// error when any fails. The hub need not run.
func verify(w io.Writer, path string) error {
	recs, err := decisions.Read(path)
	if err != nil {
		return err
	}
	paired, err := pairedKeys()
	if err != nil {
		return err
	}
	var ok, unpaired, unsigned, failed int
	for _, v := range decisions.Verify(recs, paired) {
		r := v.Record
		switch {
		case v.Err != nil:
			failed++
			fmt.Fprintf(w, "FAILS  %s  set %s (%s) by %s: %v\n", r.Time.Local().Format("2006-01-02 15:04:05"), r.Set, r.Asked, r.Signed.Device, v.Err)
		case v.Signed && v.Paired == "":
			ok++
			unpaired++
			fmt.Fprintf(w, "note   set %s was signed by device %s, not paired now (revoked?): checked with the key its record carries\n", r.Set, r.Signed.Device)
		case v.Signed:
			ok++
		case r.Kind == permission.KindApproval && r.Outcome == permission.StateAnswered && r.Device != "":
			unsigned++ // a device allowed to approve without a passkey, or a record older than signing
		}
	}
	fmt.Fprintf(w, "%d signed decisions verified (%d by devices not paired now), %d fail; %d approvals by a device carry no signature; %d records in all.\n",
		ok, unpaired, failed, unsigned, len(recs))
	if failed > 0 {
		return fmt.Errorf("%d of the decisions log's records fail verification", failed)
	}
	return nil
}

// pairedKeys are the passkeys of the hub's paired devices, by device id,
// from its sealed devices file (none when there is no file yet).
func pairedKeys() (map[string]decisions.Key, error) {
	path, err := hub.DevicesPath()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	keyPath, err := hubkey.Path()
	if err != nil {
		return nil, err
	}
	key, err := hubkey.Open(keyPath)
	if err != nil {
		return nil, err
	}
	devs, err := pairing.Read(path, key.Derive("hub-devices.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]decisions.Key{}
	for _, d := range devs {
		if d.Passkey != nil {
			out[d.ID] = decisions.Key{Name: d.Name, CredentialID: d.Passkey.ID, PublicKey: d.Passkey.PublicKey}
		}
	}
	return out, nil
}
