package sockdir

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"

	"github.com/askbridge/askbridge/internal/peercred"
)

// ErrUnsafe is a socket's folder that another user could control.
var ErrUnsafe = errors.New("unsafe socket folder")

// unsafeError names the folder and what is wrong with it, on one line.
type unsafeError struct{ dir, what string }

func (e *unsafeError) Error() string {
	return fmt.Sprintf("the socket folder %s %s: it must be a directory of this user's alone (mode 0700, not a symbolic link)", e.dir, e.what)
}

func (e *unsafeError) Is(target error) bool { return target == ErrUnsafe }

// Check refuses a socket folder that is not a directory (a symbolic link
// included: Lstat), not owned by this uid, or open to its group or others.
func Check(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("the socket folder %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("the socket folder %s: %w", dir, err)
	case fi.Mode()&os.ModeSymlink != 0:
		return &unsafeError{dir, "is a symbolic link"}
	case !fi.IsDir():
		return &unsafeError{dir, "is not a directory"}
	}
	return checkOwner(dir, fi)
}

// Base is askbridge's folder for its sockets, made (0700) when missing and
// checked: $XDG_RUNTIME_DIR/askbridge when $XDG_RUNTIME_DIR is this user's
// alone (Linux with systemd: emptied at logout), else $TMPDIR/askbridge on
// macOS (a per-user folder under /var/folders), else askbridge in the
// user's cache folder (~/.cache, %LOCALAPPDATA%).
func Base() (string, error) {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) && Check(d) == nil {
		return ensure(filepath.Join(d, "askbridge"))
	}
	if runtime.GOOS == "darwin" {
		if d := os.TempDir(); Check(d) == nil {
			return ensure(filepath.Join(d, "askbridge"))
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no private folder for askbridge's sockets (%v): set XDG_RUNTIME_DIR or XDG_CACHE_HOME", err)
	}
	return ensure(filepath.Join(cache, "askbridge"))
}

// ensure makes dir (0700) when it is missing, then checks it.
func ensure(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("the socket folder %s: %w", dir, err)
	}
	return dir, Check(dir)
}

// Dial connects to the Unix socket at path once its folder checks out,
// and refuses a listener that runs as another uid where the OS says who
// it is (peercred.Supported).
func Dial(ctx context.Context, path string) (*net.UnixConn, error) {
	if err := Check(filepath.Dir(path)); err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	uc := c.(*net.UnixConn)
	if err := checkListener(uc); err != nil {
		uc.Close()
		return nil, fmt.Errorf("the socket %s: %w", path, err)
	}
	return uc, nil
}

// checkListener refuses a peer of another uid.
func checkListener(c *net.UnixConn) error {
	if !peercred.Supported {
		return nil
	}
	cred, err := peercred.Get(c)
	if err != nil {
		return fmt.Errorf("cannot tell who listens on it: %w", err)
	}
	if cred.UID != os.Getuid() {
		return fmt.Errorf("%w: it is served by uid %d, not this user's %d", ErrUnsafe, cred.UID, os.Getuid())
	}
	return nil
}
