"""The rules of the ACME Java review rule book, written for this evaluation in our own words.

Every structure the generator writes (Word, numbered Markdown, bold-heading PDF) renders exactly
these rules, so a retrieval difference between structures is a segmentation difference. Prose is
plain ASCII without Markdown syntax, so the same words survive all three renderings; the anchor of
a rule is taken from its first paragraph (see `make_rule_eval_set.anchor_of`).

The last chapter (STYLE: names, doc comments, braces, literals, comments) holds rules that name no
API, which code can only reach through the names of the constructs it shows; it was written from
general Java practice, not from any published guideline's wording or test cases.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

MUST = "MUST"
SHOULD = "SHOULD"


def _java(source: str) -> str:
    """Example code written indented in this file, stored flush left."""
    return textwrap.dedent(source).strip("\n")


@dataclass(frozen=True)
class Rule:
    code: str
    title: str
    level: str
    topic: str  # sub-topic inside the chapter: the Markdown rendering's second heading level
    prose: str  # 2-5 sentences; paragraphs separated by a blank line
    bad: str | None = None
    good: str | None = None

    @property
    def paragraphs(self) -> list[str]:
        return self.prose.split("\n\n")


@dataclass(frozen=True)
class Chapter:
    title: str
    rules: tuple[Rule, ...]


TITLE = "ACME Java Review Rules"
INTRO = (
    "This rule book lists what reviewers check in Java changes at ACME. Every rule has an identifier, "
    "a level and a short rationale; rules of level MUST block a merge, rules of level SHOULD may be "
    "waived with a stated reason."
)

RESOURCES = Chapter("Resources and I/O", (
    Rule(
        "IO-01", "Close every stream you open", MUST, "Closing resources",
        "Streams, readers, sockets and JDBC objects hold operating-system handles that the garbage "
        "collector does not give back on any useful schedule. A method that opens one and closes it only "
        "on the happy path leaks a handle each time an exception escapes, and a busy server eventually "
        "fails with too many open files. Declare such objects in a try-with-resources header so that they "
        "are closed on every exit path, in reverse order of opening.",
        bad=_java("""
            Properties loadSettings(Path file) throws IOException {
                InputStream in = Files.newInputStream(file);
                Properties props = new Properties();
                props.load(in);
                in.close();
                return props;
            }
        """),
        good=_java("""
            Properties loadSettings(Path file) throws IOException {
                try (InputStream in = Files.newInputStream(file)) {
                    Properties props = new Properties();
                    props.load(in);
                    return props;
                }
            }
        """),
    ),
    Rule(
        "IO-02", "Name the charset whenever bytes become text", MUST, "Text encoding",
        "Calls such as new String(bytes), new FileReader(file) or getBytes() without an argument fall back "
        "to the platform default encoding, which differs between a developer laptop, a container image and "
        "a Windows build agent. The same input then decodes to different characters on different machines, "
        "and names or addresses with accents are silently mangled.\n\n"
        "Pass StandardCharsets.UTF_8, or whatever encoding the protocol or file format defines, every time "
        "bytes are turned into characters or back.",
        bad=_java("""
            String readBody(byte[] payload) {
                return new String(payload);
            }
        """),
        good=_java("""
            String readBody(byte[] payload) {
                return new String(payload, StandardCharsets.UTF_8);
            }
        """),
    ),
    Rule(
        "IO-03", "Do not rely on finalize for cleanup", SHOULD, "Closing resources",
        "The JVM promises neither when nor whether a finalizer runs, so a file or connection released in "
        "finalize may stay open long after its owner became unreachable. Finalizers also slow down garbage "
        "collection and are deprecated for removal in current Java releases. Release resources explicitly "
        "through close and AutoCloseable, and register a java.lang.ref.Cleaner if a safety net is wanted.",
        bad=_java("""
            public class TempArchive {
                private final RandomAccessFile file;

                TempArchive(File f) throws IOException {
                    file = new RandomAccessFile(f, "rw");
                }

                @Override
                protected void finalize() throws Throwable {
                    file.close();
                }
            }
        """),
        good=_java("""
            public class TempArchive implements AutoCloseable {
                private final RandomAccessFile file;

                TempArchive(File f) throws IOException {
                    file = new RandomAccessFile(f, "rw");
                }

                @Override
                public void close() throws IOException {
                    file.close();
                }
            }
        """),
    ),
))

ERRORS = Chapter("Exceptions and logging", (
    Rule(
        "ERR-01", "Never swallow an exception", MUST, "Handling exceptions",
        "An empty catch block, or one holding nothing but a comment, turns a failure into quiet wrong "
        "behaviour that nobody can diagnose later. If the exception is truly expected and harmless, say why "
        "in the block and, where it helps, log it at debug level. Otherwise handle it, translate it into a "
        "meaningful exception, or let it propagate to a layer that can react.",
        bad=_java("""
            int parsePort(String value) {
                int port = 8080;
                try {
                    port = Integer.parseInt(value);
                } catch (NumberFormatException e) {
                }
                return port;
            }
        """),
        good=_java("""
            int parsePort(String value) {
                try {
                    return Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("port is not a number: " + value, e);
                }
            }
        """),
    ),
    Rule(
        "ERR-02", "Do not catch Throwable or Error", MUST, "Handling exceptions",
        "A handler for Throwable or Error also traps OutOfMemoryError, StackOverflowError and linkage "
        "failures, after which the JVM may be in no state to continue. Code that catches them and carries "
        "on hides the real fault and can corrupt data while the process limps along. Catch the specific "
        "checked and runtime exceptions you can act on and leave errors to the thread's top-level handler.",
        bad=_java("""
            try {
                report = renderer.render(template, model);
            } catch (Throwable t) {
                report = Report.empty();
            }
        """),
        good=_java("""
            try {
                report = renderer.render(template, model);
            } catch (TemplateException | IOException e) {
                report = Report.failed(e.getMessage());
            }
        """),
    ),
    Rule(
        "ERR-03", "Keep the cause when wrapping an exception", MUST, "Handling exceptions",
        "Throwing a new exception from a catch block without handing over the caught one as its cause "
        "throws away the original stack trace and message. The log then shows where the wrapper was built "
        "but not what went wrong underneath, which is usually the part needed for the fix. Pass the caught "
        "exception to the constructor of the new one, or call initCause when the type has no such "
        "constructor.",
        bad=_java("""
            try {
                return mapper.readValue(json, Invoice.class);
            } catch (JsonProcessingException e) {
                throw new InvoiceFormatException("invalid invoice JSON");
            }
        """),
        good=_java("""
            try {
                return mapper.readValue(json, Invoice.class);
            } catch (JsonProcessingException e) {
                throw new InvoiceFormatException("invalid invoice JSON", e);
            }
        """),
    ),
    Rule(
        "ERR-04", "Do not return from a finally block", MUST, "Handling exceptions",
        "A return statement inside finally overrides whatever the try block was doing: a pending exception "
        "vanishes without a trace and an earlier return value is replaced. Callers then see a normal result "
        "for an operation that in fact failed. Keep finally blocks for releasing resources and put return "
        "statements in the try block or after the whole statement.",
    ),
    Rule(
        "ERR-05", "Restore the interrupt status after catching InterruptedException", MUST, "Handling exceptions",
        "Interruption is how Java asks a thread to stop what it is doing, and catching InterruptedException "
        "clears the flag that carries the request. If the handler neither rethrows nor sets the flag again, "
        "code further up the stack, such as an executor that is shutting down, never learns that it was "
        "asked to stop. Either propagate the exception or call Thread.currentThread().interrupt() before "
        "returning.",
        bad=_java("""
            void pause(long millis) {
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    log.warn("sleep interrupted");
                }
            }
        """),
        good=_java("""
            void pause(long millis) {
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        """),
    ),
    Rule(
        "ERR-06", "Send stack traces to the logger, not to standard error", SHOULD, "Logging",
        "printStackTrace writes to System.err, which in a deployed service is often thrown away or ends up "
        "in a file nobody correlates with the application log. The trace also misses the timestamp, thread "
        "name and request context that the logging framework would add. Pass the exception as the last "
        "argument of a logger call so that the trace is recorded together with its context.",
        bad=_java("""
            } catch (SQLException e) {
                e.printStackTrace();
            }
        """),
        good=_java("""
            } catch (SQLException e) {
                log.error("could not store order {}", order.getId(), e);
            }
        """),
    ),
    Rule(
        "ERR-07", "Use placeholders in log messages instead of concatenation", SHOULD, "Logging",
        "A message glued together with the plus operator is built, and every argument's toString called, "
        "even when the level is disabled and the line is discarded. On hot paths this costs measurable CPU "
        "and garbage, and one expensive toString can dominate a request.\n\n"
        "Use the parameterised form of the logging API with curly-brace placeholders, so that formatting "
        "only happens when the event is actually written.",
        bad=_java("""
            log.debug("Loaded " + rows.size() + " rows for customer " + customer);
        """),
        good=_java("""
            log.debug("Loaded {} rows for customer {}", rows.size(), customer);
        """),
    ),
))

CONCURRENCY = Chapter("Concurrency", (
    Rule(
        "CON-01", "Guard shared mutable state", MUST, "Shared state",
        "Spring singletons, servlets and static caches are used by many request threads at once, so every "
        "field they modify is shared mutable state. Updating a plain HashMap or incrementing an int field "
        "from several threads loses updates and can even break the map's internal structure. Make such "
        "state immutable, confine it to one thread, or protect it with a lock or a concurrent type like "
        "ConcurrentHashMap or AtomicLong.",
        bad=_java("""
            @Service
            public class QuotaTracker {
                private final Map<String, Integer> used = new HashMap<>();

                public void record(String tenant) {
                    used.put(tenant, used.getOrDefault(tenant, 0) + 1);
                }
            }
        """),
        good=_java("""
            @Service
            public class QuotaTracker {
                private final ConcurrentMap<String, Integer> used = new ConcurrentHashMap<>();

                public void record(String tenant) {
                    used.merge(tenant, 1, Integer::sum);
                }
            }
        """),
    ),
    Rule(
        "CON-02", "Declare the field volatile in double-checked locking", MUST, "Shared state",
        "The double-checked idiom reads the field once outside the lock to avoid synchronising on every "
        "call. Without volatile the Java memory model lets another thread see the reference before the "
        "constructor's writes are visible, and so work with a half-built object. Mark the field volatile, "
        "or better use a holder class or an enum, which get lazy and safe initialisation from the class "
        "loader for free.",
        bad=_java("""
            private static Registry instance;

            static Registry get() {
                if (instance == null) {
                    synchronized (Registry.class) {
                        if (instance == null) {
                            instance = new Registry();
                        }
                    }
                }
                return instance;
            }
        """),
        good=_java("""
            private static volatile Registry instance;

            static Registry get() {
                Registry local = instance;
                if (local == null) {
                    synchronized (Registry.class) {
                        local = instance;
                        if (local == null) {
                            instance = local = new Registry();
                        }
                    }
                }
                return local;
            }
        """),
    ),
    Rule(
        "CON-03", "Call wait() in a loop that re-checks its condition", MUST, "Shared state",
        "A thread can return from wait() although nobody called notify, a so-called spurious wakeup, and "
        "even a real notification may arrive after another thread already consumed the state it announced. "
        "Code that waits under an if statement then proceeds on a condition that no longer holds. Always "
        "wait inside a while loop that tests the condition again, or use the higher-level tools of "
        "java.util.concurrent.",
        bad=_java("""
            synchronized Job take() throws InterruptedException {
                if (queue.isEmpty()) {
                    wait();
                }
                return queue.removeFirst();
            }
        """),
        good=_java("""
            synchronized Job take() throws InterruptedException {
                while (queue.isEmpty()) {
                    wait();
                }
                return queue.removeFirst();
            }
        """),
    ),
    Rule(
        "CON-04", "Give every thread pool a bounded queue", MUST, "Threads and pools",
        "The factory methods newFixedThreadPool and newSingleThreadExecutor put tasks in a queue without a "
        "capacity limit, and newCachedThreadPool starts a new thread for every task that finds no idle one. "
        "Under a burst of load either the queue or the number of threads grows until the heap or the "
        "operating system gives out. Build a ThreadPoolExecutor with explicit core and maximum sizes, a "
        "bounded queue and a rejection policy chosen on purpose.",
        bad=_java("""
            private final ExecutorService exportPool = Executors.newCachedThreadPool();
        """),
        good=_java("""
            private final ExecutorService exportPool = new ThreadPoolExecutor(
                    4, 8, 60, TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(500),
                    new ThreadPoolExecutor.CallerRunsPolicy());
        """),
    ),
    Rule(
        "CON-05", "Do not share a SimpleDateFormat between threads", MUST, "Shared state",
        "SimpleDateFormat keeps the calendar it works on in instance fields, so two threads formatting or "
        "parsing with one instance overwrite each other's intermediate state. The outcome is wrong dates or "
        "odd NumberFormatExceptions under load, while single-threaded tests keep passing. Use the immutable "
        "java.time.format.DateTimeFormatter, or create a formatter per call or per thread.",
        bad=_java("""
            private static final SimpleDateFormat DAY = new SimpleDateFormat("yyyy-MM-dd");

            String dayOf(Date when) {
                return DAY.format(when);
            }
        """),
        good=_java("""
            private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE;

            String dayOf(LocalDate when) {
                return DAY.format(when);
            }
        """),
    ),
    Rule(
        "CON-06", "Release explicit locks in a finally block", MUST, "Threads and pools",
        "Unlike a synchronized block, an explicit Lock is not released by itself when an exception leaves "
        "the method. If unlock is called only at the end of the normal path, a single failure leaves the "
        "lock held for good and every other thread that needs it blocks. Call lock() right before a try "
        "statement and unlock() as the first thing in its finally clause.",
    ),
))

OBJECTS = Chapter("Objects and collections", (
    Rule(
        "R-1", "Override hashCode whenever you override equals", MUST, "Equality and identity",
        "Hash-based collections first choose a bucket from hashCode and only then call equals. Two objects "
        "that are equal but keep the identity-based hashCode inherited from Object nearly always land in "
        "different buckets, so a HashSet holds duplicates and a HashMap lookup with an equal key finds "
        "nothing. Whenever equals is overridden, derive hashCode from the same fields, or use a record.",
        bad=_java("""
            public final class Sku {
                private final String code;

                Sku(String code) {
                    this.code = code;
                }

                @Override
                public boolean equals(Object o) {
                    return o instanceof Sku other && code.equals(other.code);
                }
            }
        """),
        good=_java("""
            public record Sku(String code) {
            }
        """),
    ),
    Rule(
        "R-2", "Never compare strings with ==", MUST, "Equality and identity",
        "On objects the == operator asks whether two references point at the same instance, not whether "
        "two strings hold the same characters. Literals and interned strings happen to be shared, so such "
        "comparisons pass in unit tests and then fail for values read from a request, a file or a database. "
        "Compare text with equals or equalsIgnoreCase, or with Objects.equals when either side may be null.",
        bad=_java("""
            if (request.getParameter("mode") == "preview") {
                return renderPreview(request);
            }
        """),
        good=_java("""
            if ("preview".equals(request.getParameter("mode"))) {
                return renderPreview(request);
            }
        """),
    ),
    Rule(
        "R-3", "Return empty collections instead of null", SHOULD, "Null and Optional",
        "A method declared to return a list, set or map that answers null when there are no results forces "
        "a null check on every caller, and the one caller that forgets fails with a NullPointerException far "
        "from the cause. An empty collection says the same thing and works with loops and streams as it is. "
        "Return List.of(), Collections.emptyMap() or a fresh empty collection when there is nothing to "
        "return.",
        bad=_java("""
            List<Address> addressesOf(Customer c) {
                if (c.getAddresses() == null) {
                    return null;
                }
                return c.getAddresses();
            }
        """),
        good=_java("""
            List<Address> addressesOf(Customer c) {
                return c.getAddresses() == null ? List.of() : c.getAddresses();
            }
        """),
    ),
    Rule(
        "R-4", "Check an Optional before taking its value", MUST, "Null and Optional",
        "Optional exists to make the empty case visible in the type, and calling get() without a check "
        "throws NoSuchElementException exactly where the designer wanted a decision to be made. Such code is "
        "no safer than dereferencing a nullable reference. Use orElse, orElseGet, map or ifPresent, or an "
        "explicit isPresent test, and keep Optional out of fields and parameters.",
        bad=_java("""
            String regionOf(long storeId) {
                return storeRepository.findById(storeId).get().getRegion();
            }
        """),
        good=_java("""
            String regionOf(long storeId) {
                return storeRepository.findById(storeId)
                        .map(Store::getRegion)
                        .orElse(DEFAULT_REGION);
            }
        """),
    ),
    Rule(
        "R-5", "Do not add or remove elements while iterating with for-each", MUST, "Collections",
        "The enhanced for loop walks the collection with its iterator, and most standard collections fail "
        "fast with ConcurrentModificationException when they are structurally changed behind that "
        "iterator's back. Worse, removing the second-to-last element of an ArrayList ends the loop early "
        "without any exception. Remove through Iterator.remove, use removeIf, or collect the changes and "
        "apply them after the loop.",
        bad=_java("""
            for (Session s : sessions) {
                if (s.isExpired()) {
                    sessions.remove(s);
                }
            }
        """),
        good=_java("""
            sessions.removeIf(Session::isExpired);
        """),
    ),
    Rule(
        "R-6", "Do not use raw generic types", SHOULD, "Collections",
        "A raw List or Map switches off the compiler's type checks for all code that touches it, and an "
        "element of the wrong type only shows up much later as a ClassCastException somewhere else. Raw "
        "types exist solely for compatibility with code written before Java 5. Always supply type "
        "arguments, with a wildcard such as List<?> when the element type really does not matter.",
        bad=_java("""
            List pending = new ArrayList();
            pending.add(order);
            Order first = (Order) pending.get(0);
        """),
        good=_java("""
            List<Order> pending = new ArrayList<>();
            pending.add(order);
            Order first = pending.get(0);
        """),
    ),
    Rule(
        "R-7", "Do not expose internal arrays", MUST, "Collections",
        "Arrays are always mutable, so a getter that hands out the array stored in a field lets any caller "
        "rewrite the object's state without going through its methods. The same holds for a constructor "
        "that keeps an array it was given without copying it. Return a clone or an unmodifiable list view, "
        "and copy incoming arrays defensively.",
        bad=_java("""
            public final class Palette {
                private final Color[] colors;

                public Color[] getColors() {
                    return colors;
                }
            }
        """),
        good=_java("""
            public final class Palette {
                private final Color[] colors;

                public Color[] getColors() {
                    return colors.clone();
                }
            }
        """),
    ),
))

DESIGN = Chapter("Class design", (
    Rule(
        "R-8", "Do not expose mutable static fields", MUST, "Fields and methods",
        "A public static field that is not final, or that is final but refers to an array or a modifiable "
        "collection, is global state that any class in the process can change. Such changes are invisible "
        "at the call site, hard to test and unsafe across threads. Keep static fields private, make "
        "constants truly immutable with List.of or an unmodifiable wrapper, and offer methods for "
        "controlled access.",
        bad=_java("""
            public class Limits {
                public static int maxUploadMb = 20;
                public static final String[] BLOCKED_TYPES = {"exe", "bat"};
            }
        """),
        good=_java("""
            public final class Limits {
                public static final int MAX_UPLOAD_MB = 20;
                public static final List<String> BLOCKED_TYPES = List.of("exe", "bat");
            }
        """),
    ),
    Rule(
        "R-9", "Avoid boolean flag parameters in public methods", SHOULD, "Fields and methods",
        "A call like export(report, true, false) tells the reader nothing about what the two flags mean, "
        "and swapping them compiles without complaint. A boolean parameter also often signals that the "
        "method does two different jobs. Split the method into two with descriptive names, or replace the "
        "flag by an enum whose constants name the choices.",
        bad=_java("""
            byte[] data = exporter.export(report, true, false);
        """),
        good=_java("""
            byte[] data = exporter.export(report, Compression.GZIP, HeaderRow.OMIT);
        """),
    ),
    Rule(
        "R-10", "End every switch case with break, return or throw", MUST, "Control flow",
        "In a classic switch statement, execution runs on into the next case label unless something stops "
        "it. A forgotten break therefore executes the code of the following case as well, and it usually "
        "slips through compilation and review alike. End each non-empty case group explicitly, mark "
        "intended fall-through with a comment, or use the arrow form of switch, which never falls through.",
        bad=_java("""
            switch (status) {
                case PAID:
                    ledger.book(invoice);
                case SENT:
                    mailer.sendReminder(invoice);
                    break;
                default:
                    break;
            }
        """),
        good=_java("""
            switch (status) {
                case PAID -> ledger.book(invoice);
                case SENT -> mailer.sendReminder(invoice);
                default -> { }
            }
        """),
    ),
    Rule(
        "R-11", "Prefer copy constructors to clone()", SHOULD, "Fields and methods",
        "Object.clone makes a shallow field-by-field copy, so a cloned object shares its lists, arrays and "
        "other mutable members with the original. The Cloneable contract is easy to get wrong as well: it "
        "bypasses constructors and their invariants and burdens callers with casts and a checked exception. "
        "Provide a copy constructor or a static copy factory that copies mutable fields deeply.",
        bad=_java("""
            public class Route implements Cloneable {
                private List<Stop> stops = new ArrayList<>();

                @Override
                public Route clone() {
                    try {
                        return (Route) super.clone();
                    } catch (CloneNotSupportedException e) {
                        throw new AssertionError(e);
                    }
                }
            }
        """),
        good=_java("""
            public class Route {
                private final List<Stop> stops;

                public Route(Route other) {
                    this.stops = new ArrayList<>(other.stops);
                }
            }
        """),
    ),
    Rule(
        "R-12", "Do not call overridable methods from a constructor", SHOULD, "Fields and methods",
        "While a superclass constructor runs, the fields of the subclass still hold their default values. "
        "If that constructor calls a method the subclass overrides, the override runs against a "
        "half-initialised object and typically sees null fields. Call only private, static or final methods "
        "from constructors, or move the work into a factory method that runs after construction.",
    ),
))

NUMBERS = Chapter("Numbers and time", (
    Rule(
        "NUM-01", "Widen to long before multiplying large int values", MUST, "Arithmetic",
        "Java multiplies two int values in 32 bits and silently wraps around once the product passes about "
        "2.1 billion, and only afterwards widens the result if it is assigned to a long. Byte sizes, "
        "durations in milliseconds and quantities times prices overflow this way on production data long "
        "after the tests passed. Cast one operand to long before the multiplication, or use "
        "Math.multiplyExact to fail loudly.",
        bad=_java("""
            long retentionMillis(int days) {
                return days * 24 * 60 * 60 * 1000;
            }
        """),
        good=_java("""
            long retentionMillis(int days) {
                return TimeUnit.DAYS.toMillis(days);
            }
        """),
    ),
    Rule(
        "NUM-02", "Keep money out of float and double", MUST, "Money",
        "Binary floating point cannot represent most decimal fractions exactly, so 0.1 plus 0.2 is not 0.3 "
        "and a sum of prices drifts by fractions of a cent. Rounding for display hides the error until "
        "totals stop matching the ledger. Represent amounts as BigDecimal with an explicit scale and rounding "
        "mode, or as a long count of the smallest currency unit.",
        bad=_java("""
            double total = 0;
            for (LineItem item : cart.getItems()) {
                total += item.getPrice() * item.getQuantity();
            }
        """),
        good=_java("""
            BigDecimal total = BigDecimal.ZERO;
            for (LineItem item : cart.getItems()) {
                BigDecimal quantity = BigDecimal.valueOf(item.getQuantity());
                total = total.add(item.getPrice().multiply(quantity));
            }
        """),
    ),
    Rule(
        "NUM-03", "Compare BigDecimal values with compareTo", MUST, "Money",
        "BigDecimal.equals treats two numbers as different when their scales differ, so 2.0 and 2.00 are "
        "unequal although they denote the same amount. A check such as price.equals(BigDecimal.ZERO) "
        "therefore fails for values loaded from a database column with a fixed scale. Use compareTo and test "
        "its result against zero whenever the numeric value is what matters.",
        bad=_java("""
            if (refund.getAmount().equals(BigDecimal.ZERO)) {
                return;
            }
        """),
        good=_java("""
            if (refund.getAmount().signum() == 0) {
                return;
            }
        """),
    ),
    Rule(
        "NUM-04", "Do not construct BigDecimal from a double", MUST, "Money",
        "The BigDecimal constructor taking a double captures the exact binary value of its argument, so "
        "new BigDecimal(0.1) holds a long tail of digits instead of one tenth. That error then travels "
        "through every calculation that starts from it. Use BigDecimal.valueOf, which goes through the "
        "shortest decimal string, or pass the amount as a string.",
    ),
    Rule(
        "NUM-05", "Convert to floating point before dividing integers", SHOULD, "Arithmetic",
        "When both operands are integers the division is carried out in integer arithmetic, and the "
        "fraction is dropped before any widening to double takes place. Ratios, averages and percentages "
        "then come out as whole numbers, very often zero. Cast one operand to double first, or divide "
        "BigDecimal values with a stated rounding mode.",
        bad=_java("""
            double hitRate = cacheHits / totalLookups;
        """),
        good=_java("""
            double hitRate = (double) cacheHits / totalLookups;
        """),
    ),
    Rule(
        "NUM-06", "Use java.time instead of Date and Calendar", SHOULD, "Dates and times",
        "java.util.Date and Calendar are mutable, mix an instant with a time zone that is never stated, and "
        "count months from zero. Passing them between layers invites forgotten defensive copies and "
        "off-by-one month bugs. Use Instant for points in time, LocalDate for calendar dates and "
        "ZonedDateTime where a zone matters, converting only at the edge where an old API demands a Date.",
        bad=_java("""
            Calendar cal = Calendar.getInstance();
            cal.add(Calendar.DAY_OF_MONTH, 30);
            Date dueDate = cal.getTime();
        """),
        good=_java("""
            LocalDate dueDate = LocalDate.now(clock).plusDays(30);
        """),
    ),
))

SECURITY = Chapter("Security", (
    Rule(
        "SEC-01", "Build SQL with bind parameters", MUST, "Injection",
        "Concatenating request values into SQL text lets a crafted value close the literal and append "
        "statements of its own, which is how whole tables get read or dropped. Escaping by hand misses edge "
        "cases that differ between database vendors. Send the statement with question-mark placeholders "
        "through a PreparedStatement, or the named parameters of your data access library, and bind every "
        "value.",
        bad=_java("""
            String sql = "SELECT * FROM users WHERE email = '" + email + "'";
            ResultSet rs = connection.createStatement().executeQuery(sql);
        """),
        good=_java("""
            PreparedStatement ps = connection.prepareStatement(
                    "SELECT * FROM users WHERE email = ?");
            ps.setString(1, email);
            ResultSet rs = ps.executeQuery();
        """),
    ),
    Rule(
        "SEC-02", "Never hand user input to a command shell", MUST, "Injection",
        "Runtime.exec or ProcessBuilder with a command line assembled from outside input, above all one run "
        "through sh -c or cmd /c, lets an attacker chain arbitrary commands with semicolons, pipes or "
        "backticks. Prefer a Java library to an external program.\n\n"
        "Where a process cannot be avoided, start a fixed executable, pass each argument as its own list "
        "element and check arguments against an allow-list.",
        bad=_java("""
            String cmd = "ping -c 1 " + host;
            Process p = Runtime.getRuntime().exec(new String[] {"sh", "-c", cmd});
        """),
        good=_java("""
            if (!HOSTNAME.matcher(host).matches()) {
                throw new IllegalArgumentException("bad host");
            }
            Process p = new ProcessBuilder("ping", "-c", "1", host).start();
        """),
    ),
    Rule(
        "SEC-03", "Keep user-supplied file names inside a base directory", MUST, "Injection",
        "A file name taken from a request can contain ../ sequences or an absolute path and so reach "
        "configuration files, keys or other tenants' data. Searching the name for two dots is not enough "
        "because of encodings and symbolic links. Resolve the name against the base directory, normalise "
        "the result and reject it unless it still lies under that directory.",
        bad=_java("""
            File target = new File(UPLOAD_ROOT, request.getParameter("name"));
            return Files.readAllBytes(target.toPath());
        """),
        good=_java("""
            Path target = uploadRoot.resolve(name).normalize();
            if (!target.startsWith(uploadRoot)) {
                throw new AccessDeniedException(name);
            }
            return Files.readAllBytes(target);
        """),
    ),
    Rule(
        "SEC-04", "Keep credentials out of source code", MUST, "Secrets and randomness",
        "Passwords, API keys and signing secrets written into source files end up in every clone of the "
        "repository, in build artefacts and in the version history, where deleting the line later does not "
        "remove them. Rotating such a secret also takes a code change and a release. Read credentials at "
        "run time from the environment, a secrets manager or a protected configuration file.",
        bad=_java("""
            DataSource ds = DataSourceBuilder.create()
                    .url("jdbc:postgresql://db:5432/billing")
                    .username("billing")
                    .password("Billing#2024")
                    .build();
        """),
        good=_java("""
            DataSource ds = DataSourceBuilder.create()
                    .url(env.getRequiredProperty("billing.db.url"))
                    .username(env.getRequiredProperty("billing.db.user"))
                    .password(env.getRequiredProperty("billing.db.password"))
                    .build();
        """),
    ),
    Rule(
        "SEC-05", "Use SecureRandom for tokens, keys and salts", MUST, "Secrets and randomness",
        "java.util.Random and Math.random are linear congruential generators: after seeing a few outputs an "
        "attacker can compute all the following ones. Session identifiers, password reset tokens, nonces "
        "and salts derived from them are therefore guessable. Generate such values with "
        "java.security.SecureRandom and make them at least 128 bits long.",
        bad=_java("""
            String resetToken = Long.toHexString(new Random().nextLong());
        """),
        good=_java("""
            byte[] bytes = new byte[32];
            SECURE_RANDOM.nextBytes(bytes);
            String resetToken = Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(bytes);
        """),
    ),
    Rule(
        "SEC-06", "Disable external entities in XML parsers", MUST, "Untrusted input",
        "With default settings the JDK parsers honour DOCTYPE declarations and external entities, so a "
        "document from outside can make the server read local files or open network connections, and "
        "nested entities can exhaust memory. Every DocumentBuilderFactory, SAXParserFactory and "
        "XMLInputFactory that reads untrusted XML needs these features switched off; disallowing DOCTYPE "
        "declarations altogether is the simplest safe setting.",
        bad=_java("""
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            Document doc = f.newDocumentBuilder().parse(request.getInputStream());
        """),
        good=_java("""
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = f.newDocumentBuilder().parse(request.getInputStream());
        """),
    ),
    Rule(
        "SEC-07", "Do not deserialize untrusted data with ObjectInputStream", MUST, "Untrusted input",
        "Java deserialization instantiates whatever classes the byte stream names and runs their readObject "
        "logic before your code ever sees the result. Gadget chains in common libraries turn this into "
        "remote code execution for anyone who controls the bytes. Exchange data in a format such as JSON "
        "bound to explicit types, or at least install an ObjectInputFilter that admits only the expected "
        "classes.",
        bad=_java("""
            try (ObjectInputStream in = new ObjectInputStream(socket.getInputStream())) {
                Command cmd = (Command) in.readObject();
                cmd.execute();
            }
        """),
        good=_java("""
            Command cmd = objectMapper.readValue(socket.getInputStream(), Command.class);
            cmd.execute();
        """),
    ),
    Rule(
        "SEC-08", "Keep secrets and personal data out of logs", MUST, "Secrets and randomness",
        "Log files are shipped to central platforms, kept for months and read by far more people than the "
        "production database. A password, access token or card number written there is in effect published "
        "to all of them. Log identifiers rather than secrets, mask sensitive values, and be careful with "
        "the toString of request objects that get logged whole.",
    ),
))

STYLE = Chapter("Style and documentation", (
    Rule(
        "STY-01", "Name classes, interfaces and enums in UpperCamelCase", MUST, "Names",
        "Readers of Java tell a type from a variable at a glance because type names begin with a capital "
        "letter and capitalise every further word, as in OrderRepository or HttpClientFactory. A type "
        "called orderService, Order_Helper or PAYMENTGATEWAY breaks that habit and makes each import and "
        "declaration slower to read. Start every class, interface, enum, record and annotation name with an "
        "upper-case letter, join the words without underscores and write acronyms like ordinary words, "
        "HtmlParser rather than HTMLParser.",
        bad=_java("""
            public class invoice_printer {
                private final Printer printer;

                invoice_printer(Printer printer) {
                    this.printer = printer;
                }
            }
        """),
        good=_java("""
            public class InvoicePrinter {
                private final Printer printer;

                InvoicePrinter(Printer printer) {
                    this.printer = printer;
                }
            }
        """),
    ),
    Rule(
        "STY-02", "Use lowerCamelCase for methods, fields, parameters and local variables", MUST, "Names",
        "Methods and variables start with a lower-case letter and mark each further word with a capital "
        "letter: totalAmount, findByEmail, retryCount. Spellings such as Total_Amount, GetUser or customer_id "
        "look like type names or like code ported from another language, and they clash with the property "
        "names that frameworks derive from fields and getters. Leading underscores, dollar signs and "
        "Hungarian prefixes such as strName or m_count have no place in these names either.",
        bad=_java("""
            private int Retry_Count;

            public String GetDisplayName(String First_Name, String lastName) {
                String Full = First_Name + " " + lastName;
                return Full.trim();
            }
        """),
        good=_java("""
            private int retryCount;

            public String displayName(String firstName, String lastName) {
                String full = firstName + " " + lastName;
                return full.trim();
            }
        """),
    ),
    Rule(
        "STY-03", "Spell constant names in upper case with underscores", MUST, "Names",
        "A static final field that holds an immutable value is a constant, and its name is written in "
        "capital letters with the words separated by underscores, like MAX_RETRIES or DEFAULT_TIMEOUT. The "
        "shape of the name then tells the reader that the value never changes without a look at its "
        "declaration. Do not give real constants lowerCamelCase names such as maxRetries or defaultTimeout, "
        "and do not use the upper-case spelling for fields that change.",
        bad=_java("""
            private static final int maxRetries = 3;
            private static final String defaultRegion = "eu-west-1";
        """),
        good=_java("""
            private static final int MAX_RETRIES = 3;
            private static final String DEFAULT_REGION = "eu-west-1";
        """),
    ),
    Rule(
        "STY-04", "Document every public method with a Javadoc comment", MUST, "Documentation comments",
        "Public methods and the methods of public interfaces are the contract that other teams program "
        "against, and the Javadoc comment above a method is where that contract is written down. State what "
        "the method does, what each parameter means, what it returns and which exceptions it throws, with "
        "the param, return and throws tags. A public method without such a comment, or with one that only "
        "repeats the method name, sends every caller into the implementation.",
        bad=_java("""
            public interface QuotaService {
                long remaining(String tenantId);

                void consume(String tenantId, long units);
            }
        """),
        good=_java("""
            public interface QuotaService {
                /**
                 * Units the tenant may still use in the current billing period.
                 *
                 * @param tenantId the tenant, never null
                 * @return remaining units, zero when the quota is used up
                 */
                long remaining(String tenantId);
            }
        """),
    ),
    Rule(
        "STY-05", "Open every top-level class with a header comment", SHOULD, "Documentation comments",
        "Each top-level class begins with a documentation comment that says in a sentence or two what the "
        "class is responsible for and how it is meant to be used. Name the owning team or author and the "
        "release that introduced the class with the author and since tags, so that a reader knows whom to "
        "ask. A class whose file goes straight from the imports to the class declaration leaves reviewers to "
        "guess its purpose from the method bodies.",
        bad=_java("""
            import java.time.Clock;

            public class ShiftPlanner {
                private final Clock clock;
            }
        """),
        good=_java("""
            import java.time.Clock;

            /**
             * Assigns warehouse staff to the shifts of the coming week.
             *
             * @author logistics-team
             * @since 4.2
             */
            public class ShiftPlanner {
                private final Clock clock;
            }
        """),
    ),
    Rule(
        "STY-06", "Always put braces around the bodies of if, else, for and while", MUST, "Layout",
        "When the body of an if, else, for, do or while statement is a single statement written without "
        "curly braces, a second line added later at the same indentation looks like part of the body but "
        "runs every time. Write the braces even around a one-line body, with the opening brace at the end of "
        "the line that starts the block and the closing brace on a line of its own.",
        bad=_java("""
            if (order.isPaid())
                shipping.schedule(order);
                mailer.confirm(order);
        """),
        good=_java("""
            if (order.isPaid()) {
                shipping.schedule(order);
                mailer.confirm(order);
            }
        """),
    ),
    Rule(
        "STY-07", "Replace magic numbers with named constants", SHOULD, "Literals",
        "A bare numeric literal such as 86400, 3 or 0.19 in the middle of a calculation or a condition says "
        "nothing about what it stands for, and when the value changes somebody has to hunt down every copy. "
        "Give such a number a name by declaring a private static final constant, or read it from "
        "configuration when it may differ between environments. The literals 0 and 1 as loop bounds and "
        "increments, and -1 as a not-found marker, may stay as they are.",
        bad=_java("""
            if (attempts > 5) {
                lockAccount(user, 900);
            }
        """),
        good=_java("""
            if (attempts > MAX_FAILED_LOGINS) {
                lockAccount(user, LOCKOUT_SECONDS);
            }
        """),
    ),
    Rule(
        "STY-08", "Delete commented-out code instead of keeping it", SHOULD, "Comments",
        "Statements disabled by turning them into comments rot quickly: nobody compiles or tests them, and "
        "after a few changes around them nobody can tell whether they would still work. Version control "
        "keeps the old lines anyway, so remove them and say in the commit message what was dropped. If a "
        "behaviour has to be switched off for a while on purpose, use a feature flag and a short comment "
        "that refers to the ticket.",
        bad=_java("""
            total = total.add(line.price());
            // if (line.isDiscounted()) {
            //     total = total.subtract(line.discount());
            // }
            // audit.record(line);
        """),
    ),
    Rule(
        "STY-09", "Put comments on their own line above the code they explain", SHOULD, "Comments",
        "Remarks squeezed in behind a statement get cut off at the edge of the editor, drift out of "
        "alignment when the code around them is renamed and are easy to overlook in a diff. Write a comment "
        "on its own line directly above the statement or block it explains, indented like that code, with "
        "one space after the two slashes. Inside method bodies use line comments and keep the block "
        "comment syntax for documentation comments on types, fields and methods.",
        bad=_java("""
            int pending = queue.size();//items not yet sent
            sender.flush(); /* push what is left */
        """),
        good=_java("""
            // items not yet sent
            int pending = queue.size();
        """),
    ),
    Rule(
        "STY-10", "Write one statement per line and declare one variable at a time", SHOULD, "Layout",
        "Several statements on one line, or a declaration that introduces three variables with different "
        "initial values, make a line do too much: a debugger cannot stop between the parts, a diff marks the "
        "whole line as changed and an initialiser that belongs to one name is easily read as belonging to "
        "all. Give every statement its own line and every local variable or field its own declaration.",
        bad=_java("""
            int width = 0, height, depth = 1;
            width = box.width(); height = box.height();
        """),
        good=_java("""
            int width = box.width();
            int height = box.height();
            int depth = 1;
        """),
    ),
))

CHAPTERS: tuple[Chapter, ...] = (RESOURCES, ERRORS, CONCURRENCY, OBJECTS, DESIGN, NUMBERS, SECURITY, STYLE)
