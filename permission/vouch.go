package permission

import "context"

// Vouch is ctx carrying what a listener checked of its caller, for the
// front end that serves the call to weigh at the gate: the hub's inbox
// socket says ProofPeer (the kernel's peer credentials, outside every
// agent's tree), with ProofLeave when the user lets the inbox approve.
func Vouch(ctx context.Context, proof Proof) context.Context {
	return context.WithValue(ctx, vouchKey{}, proof)
}

// Vouched is what ctx's listener vouched for (Vouch); ok is false when it
// said nothing.
func Vouched(ctx context.Context) (proof Proof, ok bool) {
	proof, ok = ctx.Value(vouchKey{}).(Proof)
	return proof, ok
}

type vouchKey struct{}
