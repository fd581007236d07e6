/** The `camel` command without JBang: what JBang's camel app does with its arguments. */
public class Camel {
    public static void main(String[] args) {
        org.apache.camel.dsl.jbang.core.commands.CamelJBangMain.run(args);
    }
}
