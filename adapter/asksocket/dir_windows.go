package asksocket

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// restrictToUser gives dir a protected DACL with one entry: full control
// for the user askbridge runs as. A profile's AppData is user-only by the
// ACLs it inherits (the user, SYSTEM, Administrators); this does not rely
// on them, and drops the inherited entries, as mode 0700 does on Unix.
func restrictToUser(dir string) error {
	token := windows.GetCurrentProcessToken()
	user, err := token.GetTokenUser()
	if err != nil {
		return fmt.Errorf("restricting %s to its owner: %w", dir, err)
	}
	// OICI: files and directories created inside inherit the entry.
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;" + user.User.Sid.String() + ")")
	if err != nil {
		return fmt.Errorf("restricting %s to its owner: %w", dir, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return fmt.Errorf("restricting %s to its owner: %w", dir, err)
	}
	err = windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
	if err != nil {
		return fmt.Errorf("restricting %s to its owner: %w", dir, err)
	}
	return nil
}

// restrictSocket: the socket file inherits the directory's DACL.
func restrictSocket(string) {}
