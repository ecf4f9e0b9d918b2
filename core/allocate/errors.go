package allocate

// Error is an exception the Java strategy would throw. Error returns the message; Java
// returns the text the recorded vectors and `lbscope allocate -` print.
type Error struct {
	Class   string // Java exception simple name, e.g. IllegalArgumentException
	Message string // the exception's message; empty for NullPointerException
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Class
	}
	return e.Message
}

// Java is "<simple name>: <message>", or just the simple name for a NullPointerException,
// whose JVM-generated text is not part of the contract.
func (e *Error) Java() string {
	if e.Class == "NullPointerException" || e.Message == "" {
		return e.Class
	}
	return e.Class + ": " + e.Message
}

func illegalArgument(msg string) *Error {
	return &Error{Class: "IllegalArgumentException", Message: msg}
}

var (
	errCurrentCIDEmpty = illegalArgument("currentCID is empty")
	errMQAllEmpty      = illegalArgument("mqAll is null or mqAll empty")
	errCIDAllEmpty     = illegalArgument("cidAll is null or cidAll empty")
	errNullPointer     = &Error{Class: "NullPointerException"}
)
