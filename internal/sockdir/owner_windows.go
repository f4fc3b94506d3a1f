package sockdir

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// checkOwner wants dir owned by the user askbridge runs as. Windows has no
// mode bits: the folder's DACL, which askbridge sets to the user alone for
// the folders it makes (adapter's restrictToUser), is what keeps others
// out; the owner is what Check can hold to.
func checkOwner(dir string, _ os.FileInfo) error {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("the socket folder %s: %w", dir, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("the socket folder %s: %w", dir, err)
	}
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("the socket folder %s: %w", dir, err)
	}
	if owner.Equals(user.User.Sid) {
		return nil
	}
	// An elevated process's files are owned by Administrators.
	if owner.IsWellKnown(windows.WinBuiltinAdministratorsSid) && windows.GetCurrentProcessToken().IsElevated() {
		return nil
	}
	return &unsafeError{dir, "is owned by " + owner.String() + ", not this user"}
}
