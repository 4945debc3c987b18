"""Process-step vocabulary for the "mixed" flowchart fixtures (tools only, never cvparse).

Plain tuples of labels a real business / software flowchart would carry, grouped by the node
role that uses them, so generated charts read like real process diagrams.
"""

START_LABELS = ("Start", "Begin", "Order Received", "Request Received", "New Ticket")
END_LABELS = ("End", "Done", "Finish", "Stop", "Close Ticket", "Complete")

STEPS = (
    "Validate Input", "Send Invoice", "Check Stock", "Create Account", "Verify Email",
    "Charge Card", "Ship Order", "Pack Items", "Print Label", "Notify Customer",
    "Log Error", "Retry Request", "Load Config", "Parse File", "Save Draft",
    "Review Draft", "Approve Request", "Reject Request", "Assign Agent", "Escalate Issue",
    "Update Record", "Archive Record", "Generate Report", "Email Report", "Schedule Job",
    "Run Tests", "Build Image", "Deploy Service", "Roll Back", "Monitor Metrics",
    "Collect Feedback", "Calculate Total", "Apply Discount", "Reserve Seat", "Issue Refund",
    "Open Session", "Close Session", "Hash Password", "Send Reminder", "Book Meeting",
    "Sign Contract", "Scan Document", "Extract Text", "Translate Text", "Resize Image",
    "Compress Files", "Upload Files", "Download Data", "Clean Data", "Train Model",
    "Evaluate Model", "Merge Branch", "Request Review", "Fix Bug", "Write Tests",
    "Measure Vitals", "Register Patient", "Order Lab Test", "Dispatch Driver", "Confirm Delivery",
    "Refill Stock", "Audit Ledger", "Pay Supplier", "Match Receipt", "Reconcile Accounts",
    "Fetch Rates", "Convert Currency", "Queue Message", "Process Payment", "Send Receipt",
)

DECISIONS = (
    "Is Valid?", "In Stock?", "Payment OK?", "Approved?", "Logged In?", "Has Errors?",
    "Tests Pass?", "Retry Limit?", "Is Premium?", "Timeout?", "Duplicate?", "Signed?",
    "Within Budget?", "Needs Review?", "Data Complete?", "Address Valid?", "Is Urgent?",
    "Accepted?", "Found?", "More Items?",
)

DATA_STORES = (
    "Orders DB", "Customer Records", "Inventory", "Audit Log", "User Table", "Cache",
    "Invoice Archive", "Event Store", "Product Catalog", "Ledger", "Message Queue",
    "Patient Records", "Config Store", "File Storage",
)

# Labels for the two branches of a decision, (taken, not taken).
BRANCH_LABELS = (
    ("Yes", "No"), ("Yes", "No"), ("Yes", "No"), ("OK", "Error"), ("Valid", "Invalid"),
    ("True", "False"), ("Pass", "Fail"),
)

EDGE_LABELS = (
    "next", "on error", "retry", "async", "on success", "timeout", "manual", "batch",
    "notify", "daily", "then", "if needed",
)

GROUP_TITLES = (
    "Billing", "Validation", "Shipping", "Checkout", "Onboarding", "Support", "Reporting",
    "Data Prep", "Deployment", "Review", "Payments", "Intake", "Fulfilment", "Audit",
)
