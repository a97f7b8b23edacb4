// A second, different catalog for tool-search ranking (issue 45, third round): 40 tools of four
// domains the main catalog (bench/lib/tool-catalog.mjs) does not have — a shop, Kubernetes, an HR
// system, bookkeeping — in four naming styles real servers use: an MCP server prefix
// (`mcp__shop__list_orders`), noun-first names without a service (`pods_list`, as the Kubernetes
// MCP server names them), camelCase without a service (`getEmployee`), and a snake-case service
// prefix (`books_create_invoice`). Descriptions and input schemas are written as such servers
// write them: terse or long, with real property names.
//
// SECOND_QUERIES (40) were written with the catalog, BEFORE the third round changed the ranker,
// to check that vocabulary and weighting changes tuned on the main catalog's query sets do not
// make this catalog's figures fall. They are phrased as a model asks mid-task; `synonym: true`
// marks a query none of whose content words is in the expected tool's name or description.

const string = (description) => ({ type: "string", description });
const number = (description) => ({ type: "number", description });
const object = (properties, required = []) => ({ type: "object", properties, required });

/** @type {Array<{ name: string, description: string, inputSchema: Record<string, unknown> }>} */
const TOOLS = [
  // A shop (an MCP server named `shop`)
  { name: "mcp__shop__list_orders", description: "List orders, newest first. Filter by financial status (paid, pending, refunded), fulfillment status and creation date.",
    inputSchema: object({ status: string("Financial status: paid, pending, refunded, any."), fulfillment_status: string("shipped, unshipped, partial, any."), created_at_min: string("ISO date: orders created on or after."), limit: number("Page size, at most 250.") }) },
  { name: "mcp__shop__get_order", description: "Retrieve a single order by its ID or order number, including line items, shipping address and transactions.",
    inputSchema: object({ order_id: string("The order's ID or its number such as #1042.") }, ["order_id"]) },
  { name: "mcp__shop__create_product", description: "Create a product with title, description, vendor, product type, variants and images.",
    inputSchema: object({ title: string("Product title."), body_html: string("Description, HTML."), vendor: string("Vendor."), variants: { type: "array", items: object({ sku: string("SKU."), price: string("Price.") }) } }, ["title"]) },
  { name: "mcp__shop__update_inventory", description: "Set the available quantity of an inventory item at a location.",
    inputSchema: object({ inventory_item_id: string("Inventory item."), location_id: string("Location (warehouse or store)."), available: number("New available quantity.") }, ["inventory_item_id", "available"]) },
  { name: "mcp__shop__create_refund", description: "Create a refund for an order: refund line items, shipping, or an amount, and optionally restock the items.",
    inputSchema: object({ order_id: string("Order to refund."), amount: string("Amount to refund; omit to refund the line items given."), restock: { type: "boolean", description: "Put refunded items back in inventory." }, note: string("Reason shown to staff.") }, ["order_id"]) },
  { name: "mcp__shop__create_discount_code", description: "Create a discount code for a price rule (percentage or fixed amount off, usage limits, start and end dates).",
    inputSchema: object({ code: string("The code customers enter at checkout."), value_type: string("percentage or fixed_amount."), value: string("Negative value, e.g. -15.0."), usage_limit: number("Total uses allowed.") }, ["code", "value"]) },
  { name: "mcp__shop__fulfill_order", description: "Mark an order's line items as fulfilled and attach the tracking number and carrier.",
    inputSchema: object({ order_id: string("Order."), tracking_number: string("Carrier tracking number."), tracking_company: string("Carrier, e.g. UPS, DHL."), notify_customer: { type: "boolean", description: "Email the shipping confirmation." } }, ["order_id"]) },
  { name: "mcp__shop__search_customers", description: "Search customers by name, email, phone, tag or total spent.",
    inputSchema: object({ query: string("Search query, e.g. email:ann@example.com or total_spent:>500.") }, ["query"]) },
  { name: "mcp__shop__cancel_order", description: "Cancel an order that has not been fulfilled. Can refund payment and restock items.",
    inputSchema: object({ order_id: string("Order."), reason: string("customer, fraud, inventory, declined, other."), refund: { type: "boolean", description: "Refund the payment too." } }, ["order_id"]) },
  { name: "mcp__shop__update_product", description: "Update a product's title, description, tags, status or the price of its variants.",
    inputSchema: object({ product_id: string("Product."), title: string("New title."), status: string("active, draft or archived."), price: string("New price for all variants.") }, ["product_id"]) },

  // Kubernetes (noun-first names, no service prefix)
  { name: "pods_list", description: "List all the Kubernetes pods in the current cluster, or in one namespace, with their phase and restarts.",
    inputSchema: object({ namespace: string("Namespace; all namespaces when omitted."), labelSelector: string("Kubernetes label selector, e.g. app=web.") }) },
  { name: "pods_log", description: "Get the logs of a Kubernetes pod's container.",
    inputSchema: object({ name: string("Pod name."), namespace: string("Namespace."), container: string("Container, when the pod has several."), previous: { type: "boolean", description: "Logs of the previous, terminated container." } }, ["name"]) },
  { name: "pods_delete", description: "Delete a Kubernetes pod; its controller creates a replacement.",
    inputSchema: object({ name: string("Pod name."), namespace: string("Namespace.") }, ["name"]) },
  { name: "pods_exec", description: "Execute a command in a Kubernetes pod's container and return its output.",
    inputSchema: object({ name: string("Pod name."), namespace: string("Namespace."), command: { type: "array", items: string("Argument."), description: "Command and arguments, e.g. [\"ls\", \"-l\"]." } }, ["name", "command"]) },
  { name: "deployments_scale", description: "Scale a Deployment to the given number of replicas.",
    inputSchema: object({ name: string("Deployment."), namespace: string("Namespace."), replicas: number("Desired replica count.") }, ["name", "replicas"]) },
  { name: "deployments_restart", description: "Trigger a rolling restart of a Deployment (kubectl rollout restart).",
    inputSchema: object({ name: string("Deployment."), namespace: string("Namespace.") }, ["name"]) },
  { name: "deployments_rollback", description: "Roll a Deployment back to a previous revision.",
    inputSchema: object({ name: string("Deployment."), namespace: string("Namespace."), revision: number("Revision to go back to; the previous one when omitted.") }, ["name"]) },
  { name: "resources_create_or_update", description: "Create or update a Kubernetes resource from a YAML or JSON manifest (kubectl apply).",
    inputSchema: object({ resource: string("The manifest, YAML or JSON.") }, ["resource"]) },
  { name: "nodes_top", description: "CPU and memory usage of the cluster's nodes, from the metrics server.",
    inputSchema: object({ name: string("One node; all when omitted.") }) },
  { name: "events_list", description: "List the Kubernetes events of the cluster or a namespace: scheduling failures, image pulls, OOM kills, probes.",
    inputSchema: object({ namespace: string("Namespace; all when omitted.") }) },

  // An HR system (camelCase names, no service prefix)
  { name: "getEmployee", description: "Get an employee's record: name, job title, department, manager, start date, work email and location.",
    inputSchema: object({ employeeId: string("Employee ID or work email.") }, ["employeeId"]) },
  { name: "listTimeOffRequests", description: "List time-off requests (vacation, sick leave, parental leave) in a date range, by status.",
    inputSchema: object({ start: string("From date."), end: string("To date."), status: string("requested, approved, denied, canceled.") }) },
  { name: "approveTimeOffRequest", description: "Approve or deny a pending time-off request, with an optional note to the employee.",
    inputSchema: object({ requestId: string("Request."), decision: string("approve or deny."), note: string("Note to the employee.") }, ["requestId", "decision"]) },
  { name: "createEmployee", description: "Add a new employee record for a new hire, with personal details, job title, department and start date.",
    inputSchema: object({ firstName: string("First name."), lastName: string("Last name."), jobTitle: string("Job title."), department: string("Department."), hireDate: string("Start date.") }, ["firstName", "lastName"]) },
  { name: "updateEmployee", description: "Update fields of an employee record, such as job title, department, manager or salary.",
    inputSchema: object({ employeeId: string("Employee."), fields: { type: "object", description: "Fields to change: jobTitle, department, supervisorId, payRate…" } }, ["employeeId", "fields"]) },
  { name: "terminateEmployee", description: "Record an employee's termination: last working day, reason and whether eligible for rehire.",
    inputSchema: object({ employeeId: string("Employee."), terminationDate: string("Last day."), reason: string("resignation, layoff, dismissal, retirement.") }, ["employeeId", "terminationDate"]) },
  { name: "getOrgChart", description: "Reporting lines under a manager: who reports to whom, as a tree.",
    inputSchema: object({ rootEmployeeId: string("The manager at the top; the whole company when omitted."), depth: number("Levels.") }) },
  { name: "listJobOpenings", description: "List open positions in recruiting, with department, location and hiring manager.",
    inputSchema: object({ department: string("Department."), status: string("open, on hold, filled.") }) },
  { name: "scheduleInterview", description: "Schedule an interview between a candidate and interviewers for a job opening.",
    inputSchema: object({ candidateId: string("Candidate."), interviewers: { type: "array", items: string("Employee ID.") }, start: string("Start time."), durationMinutes: number("Length.") }, ["candidateId", "start"]) },
  { name: "getPayStub", description: "Get an employee's pay stub for a pay period: gross pay, deductions, taxes and net pay.",
    inputSchema: object({ employeeId: string("Employee."), payDate: string("Pay date; the latest when omitted.") }, ["employeeId"]) },

  // Bookkeeping (snake-case names with a service prefix)
  { name: "books_create_invoice", description: "Create a sales invoice for a customer with line items, due date and terms.",
    inputSchema: object({ customer: string("Customer name or ID."), lines: { type: "array", items: object({ item: string("Product or service."), amount: number("Amount.") }) }, due_date: string("Due date.") }, ["customer", "lines"]) },
  { name: "books_send_invoice", description: "Email an invoice to the customer, or resend a reminder for an overdue one.",
    inputSchema: object({ invoice_id: string("Invoice."), to: string("Email address; the customer's billing email when omitted.") }, ["invoice_id"]) },
  { name: "books_list_invoices", description: "List invoices filtered by customer, status (draft, sent, overdue, paid) and date.",
    inputSchema: object({ customer: string("Customer."), status: string("draft, sent, overdue, paid."), from: string("Date.") }) },
  { name: "books_record_payment", description: "Record a payment received from a customer against one or more open invoices.",
    inputSchema: object({ customer: string("Customer."), amount: number("Amount received."), invoice_ids: { type: "array", items: string("Invoice.") }, deposit_account: string("Bank account.") }, ["customer", "amount"]) },
  { name: "books_create_expense", description: "Record a business expense paid from a bank account or credit card, with vendor, category and receipt.",
    inputSchema: object({ vendor: string("Payee."), amount: number("Amount."), category: string("Expense account, e.g. Travel, Meals, Software."), payment_account: string("Bank or card account."), receipt_url: string("Receipt image.") }, ["amount"]) },
  { name: "books_create_bill", description: "Enter a bill from a vendor (accounts payable) with due date.",
    inputSchema: object({ vendor: string("Vendor."), amount: number("Amount."), due_date: string("Due date.") }, ["vendor", "amount"]) },
  { name: "books_get_profit_and_loss", description: "Profit and loss report (income statement) for a period: income, cost of goods sold, expenses, net income.",
    inputSchema: object({ start_date: string("Start of the period."), end_date: string("End of the period."), accounting_method: string("Cash or Accrual.") }) },
  { name: "books_get_balance_sheet", description: "Balance sheet report as of a date: assets, liabilities and equity.",
    inputSchema: object({ as_of: string("Date.") }) },
  { name: "books_categorize_transaction", description: "Assign an imported bank feed transaction to an account (category) and match it to a record.",
    inputSchema: object({ transaction_id: string("Bank transaction."), account: string("Category account."), memo: string("Memo.") }, ["transaction_id", "account"]) },
  { name: "books_create_vendor", description: "Add a vendor (supplier) with contact details and tax ID.",
    inputSchema: object({ name: string("Display name."), email: string("Email."), tax_id: string("Tax ID.") }, ["name"]) },
];

/** The 40 tools: { name, description, inputSchema }. */
export function secondCatalog() {
  return TOOLS.map((tool) => ({ ...tool }));
}

/** 40 queries over {@link secondCatalog}, written before the third round's ranker changes. */
export const SECOND_QUERIES = [
  // shop
  { query: "any unshipped orders from this week?", tool: "mcp__shop__list_orders" },
  { query: "pull up order #1042 and what's in it", tool: "mcp__shop__get_order" },
  { query: "add a new item to the store: blue ceramic mug, $18", tool: "mcp__shop__create_product", synonym: true },
  { query: "we only have 3 left of SKU MUG-BLUE in the Berlin warehouse, set stock to 3", tool: "mcp__shop__update_inventory" },
  { query: "give the customer their money back for order 1187, the parcel arrived broken", tool: "mcp__shop__create_refund" },
  { query: "make a 15% off promo code for newsletter subscribers", tool: "mcp__shop__create_discount_code" },
  { query: "the package went out with DHL, tracking 00340434, let the buyer know", tool: "mcp__shop__fulfill_order" },
  { query: "find the shopper with email ann@example.com", tool: "mcp__shop__search_customers" },
  { query: "customer changed their mind before we shipped, call off order 2210", tool: "mcp__shop__cancel_order" },
  { query: "change the price of the canvas tote to 24 euros", tool: "mcp__shop__update_product" },
  // Kubernetes
  { query: "which pods are crash looping in the payments namespace", tool: "pods_list" },
  { query: "show me what the checkout-7f9c pod printed before it died", tool: "pods_log" },
  { query: "kill the stuck worker pod so it gets recreated", tool: "pods_delete" },
  { query: "run `env` inside the api pod", tool: "pods_exec" },
  { query: "bump the web deployment up to 6 replicas", tool: "deployments_scale" },
  { query: "bounce the api deployment so it picks up the new config map", tool: "deployments_restart" },
  { query: "the last rollout broke prod, go back to the previous version of the api deployment", tool: "deployments_rollback" },
  { query: "apply this YAML to the cluster", tool: "resources_create_or_update" },
  { query: "which nodes are running out of memory", tool: "nodes_top" },
  { query: "why won't my pod get scheduled? show cluster warnings", tool: "events_list" },
  // HR
  { query: "who is Dana Lee's manager and when did she join", tool: "getEmployee" },
  { query: "who's on vacation next week", tool: "listTimeOffRequests" },
  { query: "OK Sam's leave request for the 12th to the 16th", tool: "approveTimeOffRequest" },
  { query: "onboard our new hire Priya Shah, starts Monday as a designer", tool: "createEmployee" },
  { query: "promote Tom to senior engineer", tool: "updateEmployee", synonym: true },
  { query: "offboard Mark, his last day is Friday, he resigned", tool: "terminateEmployee" },
  { query: "who reports to the VP of sales", tool: "getOrgChart" },
  { query: "what roles are we hiring for in engineering", tool: "listJobOpenings" },
  { query: "set up a call between candidate 88 and two engineers on Thursday at 3pm", tool: "scheduleInterview" },
  { query: "how much did Lena take home last month after tax", tool: "getPayStub" },
  // bookkeeping
  { query: "bill Acme Corp for 10 hours of consulting, due in 30 days", tool: "books_create_invoice" },
  { query: "email invoice INV-0042 to the client", tool: "books_send_invoice" },
  { query: "which invoices are overdue", tool: "books_list_invoices" },
  { query: "Acme wired us $4,000, apply it to their open invoices", tool: "books_record_payment" },
  { query: "log the $120 team lunch on the company card", tool: "books_create_expense" },
  { query: "enter the AWS bill for March, due on the 15th", tool: "books_create_bill" },
  { query: "did we make money last quarter?", tool: "books_get_profit_and_loss", synonym: true },
  { query: "what do we own and owe as of today", tool: "books_get_balance_sheet", synonym: true },
  { query: "this bank line is a software subscription, file it under Software", tool: "books_categorize_transaction" },
  { query: "add a new supplier, Paper Co, with their VAT number", tool: "books_create_vendor" },
];
