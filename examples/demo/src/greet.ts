export interface Person {
  name: string;
  title?: string;
}

export function greet(person: Person): string {
  if (person.title) {
    return "Hello, " + person.title + " " + person.name + "!";
  }
  return "Hello, " + person.name + "!";
}

export function farewell(person: Person): string {
  return "Goodbye, " + person.name + ".";
}
