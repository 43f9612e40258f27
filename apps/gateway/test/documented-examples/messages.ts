import { documentedExample } from './world';

